// V8 optimizes a function once it has run for a while, compiling it on helper threads, a trade tuned for programs
// that run for minutes. The audit of a small history is over in under a second, before most of that code pays back:
// on a 70 MB history a third of the CPU went to helper threads compiling it. So while it reads the first part of a
// history the audit asks V8 to optimize later (8× its threshold), and gives V8 its own threshold back after that and
// at the end, so a long history runs optimized code as before (docs/benchmarks.md, "When V8 optimizes").
import { setFlagsFromString } from 'node:v8';

/** Per Node major: the V8 flag that says how soon a function is optimized, and its default (V8 11.3, 12.4, 13.6). */
const TIER_FLAGS: Readonly<Record<string, { flag: string; value: number }>> = {
  '20': { flag: '--interrupt-budget', value: 67_584 },
  '22': { flag: '--invocation-count-for-turbofan', value: 3_000 },
  '24': { flag: '--invocation-count-for-turbofan', value: 3_000 },
};

/** How much later than V8's default functions are optimized while the first part of a history is read. */
export const LATE_FACTOR = 8;
/** Bytes read after which V8's own threshold is back: past it, the optimized code has a long run to pay back in. */
export const LATE_BYTES = 256e6;

export function tierFlag(nodeVersion: string): { flag: string; value: number } | undefined {
  return TIER_FLAGS[nodeVersion.split('.')[0] ?? ''];
}

/**
 * Raises V8's optimization threshold now, on a Node major whose flag is known (V8 answers an unknown flag with an error
 * on stderr and ignores it). Returns what to call with the bytes read so far, and with Infinity at the end.
 */
export function lateTierUp(
  nodeVersion = process.versions.node,
  set: (flags: string) => void = setFlagsFromString,
): (bytesRead: number) => void {
  const tier = tierFlag(nodeVersion);
  if (!tier) return () => {};
  set(`${tier.flag}=${tier.value * LATE_FACTOR}`);
  let late = true;
  return (bytesRead) => {
    if (!late || bytesRead < LATE_BYTES) return;
    late = false;
    set(`${tier.flag}=${tier.value}`);
  };
}
