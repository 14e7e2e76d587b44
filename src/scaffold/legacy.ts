// Files an older version installed under a name we no longer use (the guard before the switch to CommonJS):
// a rerun and --remove delete them when they carry our header; a foreign file of that name is reported, never removed.
import { readOwnedHeader } from '../edit/owned-file.ts';
import { GUARD_PATH, OLD_CLINE_GUARD_PATH, OLD_GUARD_PATH } from '../tools/markers.ts';
import type { FileChange } from './file-change.ts';

/** Each retired path and the path that replaced it. */
export const RETIRED: ReadonlyArray<{ path: string; replacedBy: string }> = [
  { path: OLD_GUARD_PATH, replacedBy: GUARD_PATH },
  // Cline's own copy of the guard, before its plugin became a loader of the one guard file.
  { path: OLD_CLINE_GUARD_PATH, replacedBy: GUARD_PATH },
];

/** Retired paths worth reading, given the paths the plan writes. */
export function retiredPaths(planned: Iterable<string>): string[] {
  const set = new Set(planned);
  return RETIRED.filter((r) => set.has(r.replacedBy)).map((r) => r.path);
}

/** What to do with one retired path: delete ours, report a foreign file, nothing when absent. */
export function planRetired(path: string, replacedBy: string, before: string | null): FileChange | null {
  if (before === null) return null;
  const header = readOwnedHeader(before);
  if (!header) {
    return {
      path,
      action: 'noop',
      before,
      after: before,
      reason: 'not ours (no create-loop-guard header); left alone',
      notes: [
        `${path} is not ours (no create-loop-guard header), so it is left alone; older versions installed ` +
          `the guard under this name, which is now ${replacedBy}.`,
      ],
    };
  }
  return {
    path,
    action: 'remove',
    before,
    after: null,
    reason: `old name of the guard (v${header.version}); now ${replacedBy}`,
    notes: [],
    generated: true,
    retired: true,
  };
}
