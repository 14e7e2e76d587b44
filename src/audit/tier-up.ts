// V8 optimizes a function once it has run for a while, compiling it on helper threads, a trade tuned for programs
// that run for minutes. The audit of a small history is over in under a second, before most of that code pays back:
// on a 70 MB history a third of the CPU went to helper threads compiling it. So while it reads the first part of a
// history the audit asks V8 to optimize later (Node 20 and 22: 8× its threshold; Node 24: with Maglev only, no
// TurboFan), and gives V8 its own setting back after that and at the end, so a long history runs TurboFan's code as
// before (docs/benchmarks.md, "When V8 optimizes").
import { setFlagsFromString } from 'node:v8';

/** How much later than V8's default functions are optimized while the first part of a history is read. */
export const LATE_FACTOR = 8;
/** Bytes read after which V8's own setting is back: past it, the optimized code has a long run to pay back in. */
export const LATE_BYTES = 256e6;

/** One major's V8 flag: as set while the audit is early, as set back, and how `node --v8-options` shows its default. */
export interface TierFlag {
  late: string;
  back: string;
  shown: string;
}

/** A numeric threshold raised LATE_FACTOR times. */
const later = (flag: string, value: number): TierFlag => ({
  late: `${flag}=${value * LATE_FACTOR}`,
  back: `${flag}=${value}`,
  shown: `default: ${flag}=${value}`,
});

/**
 * Per Node major (V8 11.3, 12.4, 13.6). Node 24's Maglev compiles cheaply enough to run the whole early part (a 70 MB
 * audit: 10% fewer instructions than TurboFan 8× later); Node 22's Maglev did worse without TurboFan than with it late.
 */
const TIER_FLAGS: Readonly<Record<string, TierFlag>> = {
  '20': later('--interrupt-budget', 67_584),
  '22': later('--invocation-count-for-turbofan', 3_000),
  '24': { late: '--no-turbofan', back: '--turbofan', shown: 'default: --turbofan' },
};

export function tierFlag(nodeVersion: string): TierFlag | undefined {
  return TIER_FLAGS[nodeVersion.split('.')[0] ?? ''];
}

/**
 * Sets the early value now, on a Node major whose flag is known (V8 answers an unknown flag with an error on stderr
 * and ignores it). Returns what to call with the bytes read so far, and with Infinity at the end.
 */
export function lateTierUp(
  nodeVersion = process.versions.node,
  set: (flags: string) => void = setFlagsFromString,
): (bytesRead: number) => void {
  const tier = tierFlag(nodeVersion);
  if (!tier) return () => {};
  set(tier.late);
  let late = true;
  return (bytesRead) => {
    if (!late || bytesRead < LATE_BYTES) return;
    late = false;
    set(tier.back);
  };
}
