// Cursor also runs .claude/settings.json hooks: where .cursor/hooks.json runs the guard too, the Claude entry is quiet.
import { join } from 'node:path';
import { claudeEntryInCursor } from './adapters/cursor.ts';
import type { Obj } from './json-value.ts';
import { readHead } from './project-files.ts';

/** Our Cursor entry, as the installer writes it (`node .agents/hooks/loop-guard.cjs cursor`, quoted or not). */
const CURSOR_ENTRY = /loop-guard\.cjs[\\"']*\s+cursor\b/;

/** Pure: a Cursor hooks file that runs our guard before shell calls (a file Cursor cannot parse runs nothing). */
export function cursorHooksRunGuard(text: string | undefined): boolean {
  try {
    return CURSOR_ENTRY.test(JSON.stringify(JSON.parse((text ?? '').replace(/^\uFEFF/, '')).hooks.preToolUse));
  } catch {
    return false;
  }
}

/** True when this is the Claude entry run by Cursor where .cursor/hooks.json runs the guard: Cursor's fuller entry
 * answers. */
export function cursorRunsItsOwn(toolArg: string | undefined, payload: Obj, env: Record<string, string | undefined>) {
  const root = claudeEntryInCursor(toolArg, payload, env);
  return root !== undefined && cursorHooksRunGuard(readHead(join(root, '.cursor', 'hooks.json')));
}
