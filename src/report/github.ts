// GitHub Actions annotations for --check, so drift shows up on the file in the pull request.
import type { FileChange } from '../scaffold/plan.ts';

function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `flags`: the options the suggested rerun repeats (` --tools codex`). */
export function annotations(changes: readonly FileChange[], flags = ''): string {
  const lines: string[] = [];
  for (const ch of changes) {
    if (ch.action === 'noop' || ch.home) continue;
    const what =
      ch.action === 'conflict'
        ? `create-loop-guard conflict: ${ch.reason}${ch.fix ? ` Fix: ${ch.fix}` : ''}`
        : `create-loop-guard: ${ch.path} is out of date (${ch.action}: ${ch.reason}). Run npx ` +
          `create-loop-guard${flags} --yes and commit the result.`;
    lines.push(
      `::error file=${escapeProperty(ch.path)},title=${escapeProperty('loop-guard drift')}::${escapeData(what)}`,
    );
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
