// The hand-off notes the guard writes (.agents/handoff.md for people, .agents/handoff.json for scripts): ours, so a
// full --remove deletes them, but only when each still reads as the guard wrote it (our header, our JSON shape).
import type { FileChange } from './file-change.ts';

/** The guard's paths (src/guard/core/ladder.ts, HANDOFF_NOTE and HANDOFF_JSON; a test holds them equal). */
export const HANDOFF_FILES = ['.agents/handoff.md', '.agents/handoff.json'] as const;

/** The note's first line as the guard writes it (src/guard/handoff-note.ts, HEADER). */
const NOTE_HEADER = '# Loop-guard hand-off\n';

/** The text is a hand-off file as the guard writes it. */
export function isOurHandoff(path: string, text: string): boolean {
  if (path.endsWith('.md')) return text.startsWith(NOTE_HEADER);
  try {
    const data = JSON.parse(text) as { version?: unknown; handoffs?: unknown };
    return data?.version === 1 && Array.isArray(data.handoffs) && Object.keys(data).length === 2;
  } catch {
    return false;
  }
}

/** The deletions of the hand-off files a full --remove takes with it. */
export function planHandoffRemoval(files: ReadonlyMap<string, string | null>): FileChange[] {
  return HANDOFF_FILES.flatMap((path) => {
    const before = files.get(path) ?? null;
    if (before === null || !isOurHandoff(path, before)) return [];
    const reason = "delete (the guard's hand-off note)";
    return [{ path, action: 'remove' as const, before, after: null, reason, notes: [], generated: true }];
  });
}
