// Child process for the state-store tests: runs JSON commands from stdin against the *bundled* state.ts.
// Usage: node state-worker.mjs <bundle.mjs>. Prints `ready`, then one JSON line per command.
import { closeSync, futimesSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const { readState, updateState } = await import(pathToFileURL(process.argv[2]).href);

/** Increment `count` n times; report every result so the parent can check no two updates saw the same value. */
function inc({ dir, file, n, opts }) {
  const results = [];
  let failed = 0;
  // How long each failed call took tells a lock timeout (≥ lockTimeoutMs) from an aborted commit.
  const failedMs = [];
  let slowestMs = 0;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = updateState(
      dir,
      file,
      (cur) => {
        const count = (cur?.count ?? 0) + 1;
        return { next: { count }, result: count };
      },
      opts,
    );
    const ms = performance.now() - t0;
    slowestMs = Math.max(slowestMs, ms);
    if (r === undefined) {
      failed++;
      failedMs.push(Math.round(ms));
    } else results.push(r);
  }
  return { results, failed, failedMs, slowestMs };
}

/**
 * Before each increment, take the lock if it is free and "crash" at once, backdated so it is already stale: every
 * round then has several processes finding the same stale lock, the race the breaker exists for.
 */
function staleStorm({ dir, file, n, opts }) {
  const results = [];
  const failedMs = [];
  let failed = 0;
  let slowestMs = 0;
  let planted = 0;
  for (let i = 0; i < n; i++) {
    try {
      const fd = openSync(join(dir, `${file}.lock`), 'wx', 0o600);
      const old = Date.now() / 1000 - 60;
      futimesSync(fd, old, old);
      closeSync(fd);
      planted++;
    } catch {
      // Held by someone else: nothing to plant this round.
    }
    const r = inc({ dir, file, n: 1, opts });
    failed += r.failed;
    failedMs.push(...r.failedMs);
    slowestMs = Math.max(slowestMs, r.slowestMs);
    results.push(...r.results);
  }
  return { results, failed, failedMs, slowestMs, planted };
}

/** Read n times while others write; an undefined read of a file that exists means a torn or partial file. */
function read({ dir, file, n }) {
  let missing = 0;
  let last = 0;
  let backwards = 0;
  for (let i = 0; i < n; i++) {
    const s = readState(dir, file);
    if (s === undefined) missing++;
    else {
      if (s.count < last) backwards++;
      last = s.count;
    }
  }
  return { reads: n, missing, backwards, last };
}

/** Take the lock and die inside it, leaving a lock whose holder is gone. */
function dieHoldingLock({ dir, file }) {
  updateState(dir, file, () => {
    process.kill(process.pid, 'SIGKILL');
    return { next: { count: -1 }, result: 0 };
  });
  return { survived: true };
}

const ops = { inc, read, dieHoldingLock, staleStorm };

createInterface({ input: process.stdin }).on('line', (line) => {
  const cmd = JSON.parse(line);
  const started = performance.now();
  const out = ops[cmd.op](cmd);
  process.stdout.write(`${JSON.stringify({ ...out, ms: performance.now() - started })}\n`);
});
process.stdout.write('ready\n');
