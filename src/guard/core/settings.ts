import type { GuardSettings } from './types.ts';

import { DEFAULT_BLOCK, DEFAULT_HANDOFF, DEFAULT_WARN } from '../../tools/env.ts';

export { DEFAULT_BLOCK, DEFAULT_HANDOFF, DEFAULT_WARN } from '../../tools/env.ts';

const OFF = new Set(['off', '0', 'false', 'no', 'disable', 'disabled']);

// Invalid numbers fall back to the default rather than disabling the guard, so a typo never removes protection.
function positiveInt(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\s*\d{1,4}\s*$/.test(raw)) return fallback;
  const n = Number.parseInt(raw, 10);
  return n >= 1 ? n : fallback;
}

/** LOOP_GUARD_HANDOFF: refused attempts per turn before the hand-off; 0 or off = never; a typo keeps the default. */
function handoffCount(raw: string | undefined): number {
  const v = (raw ?? '').trim().toLowerCase();
  if (OFF.has(v)) return 0;
  return positiveInt(raw, DEFAULT_HANDOFF);
}

/** Read LOOP_GUARD, LOOP_GUARD_WARN, LOOP_GUARD_BLOCK, LOOP_GUARD_HANG and LOOP_GUARD_HANDOFF from an environment. */
export function readSettings(env: Record<string, string | undefined>): GuardSettings {
  const enabled = !OFF.has((env.LOOP_GUARD ?? '').trim().toLowerCase());
  const block = positiveInt(env.LOOP_GUARD_BLOCK, DEFAULT_BLOCK);
  // A warning that could only come after the block would never be seen, so it is capped at the block.
  const warn = Math.min(positiveInt(env.LOOP_GUARD_WARN, DEFAULT_WARN), block);
  const hangGuard = !OFF.has((env.LOOP_GUARD_HANG ?? '').trim().toLowerCase());
  return { enabled, warn, block, hangGuard, handoff: handoffCount(env.LOOP_GUARD_HANDOFF) };
}
