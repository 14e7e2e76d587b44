// A synchronous sleep that leaves the CPU to others (a lock holder, a pipe reader): the one copy, for the guard and
// the installer.

let cell: Int32Array | undefined;

export function sleep(ms: number): void {
  cell ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(cell, 0, 0, ms);
}
