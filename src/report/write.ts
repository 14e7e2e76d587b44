// Writing the report to a stream that may close early (`npx create-loop-guard --dry-run | head -1`): a reader that
// has gone away is not an error, so the rest of the report is dropped instead of dying with an EPIPE stack trace.

interface Sink {
  write(s: string): unknown;
  on(event: 'error', fn: (err: NodeJS.ErrnoException) => void): unknown;
}

/** A write function for `stream` that turns EPIPE into silence (other errors still throw on the next write). */
export function pipeSafeWriter(stream: Sink): (s: string) => void {
  let closed = false;
  let failure: Error | undefined;
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') closed = true;
    else failure = err;
  });
  return (s: string) => {
    if (failure) throw failure;
    if (closed) return;
    try {
      stream.write(s);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EPIPE') closed = true;
      else throw err;
    }
  };
}
