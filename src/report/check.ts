// --check's verdict in words: drift (exit 1), outdated (exit 0 unless --strict), in sync, or not set up.
import type { CheckVerdict } from '../scaffold/outdated.ts';
import type { FileChange } from '../scaffold/plan.ts';
import type { Message } from './messages.ts';

export interface CheckOutcome {
  drift: Array<{ change: FileChange; verdict: CheckVerdict }>;
  outdated: Array<{ change: FileChange; verdict: CheckVerdict }>;
  /** Tools found in the repository that the manifest does not list, with their evidence. */
  notSetUp: Array<{ label: string; evidence: string[] }>;
  /** The version that set the repository up, and ours. */
  installed: string;
  version: string;
  strict: boolean;
  /** The options the suggested rerun repeats (` --tools codex`), so it acts on what was checked. */
  flags?: string;
}

/** One line per file that is not in sync, labelled by verdict. */
export function checkLines(o: CheckOutcome): string[] {
  const lines: string[] = [];
  // A record that only follows another file's edit is named by that file: the one the user changed.
  for (const { change, verdict } of o.drift)
    lines.push(`  ${'drift'.padEnd(10)} ${verdict.about?.join(', ') ?? change.path}  (${verdict.why})`);
  for (const { change, verdict } of o.outdated)
    lines.push(`  ${'outdated'.padEnd(10)} ${change.path}  (${verdict.why})`);
  for (const t of o.notSetUp)
    lines.push(`  ${'drift'.padEnd(10)} ${t.label} is in this repository (${t.evidence.join(', ')}) but not set up`);
  return lines;
}

/** The closing message and the exit it implies. */
export function checkVerdict(o: CheckOutcome): { message: Message; code: 0 | 1; result: string } {
  const needsForce = o.drift.some((d) => d.change.action === 'conflict');
  const fix =
    `Run npx create-loop-guard${o.flags ?? ''} --yes` +
    `${needsForce ? ' --force (a conflict needs it; review what it replaces with --dry-run --force first)' : ''}` +
    ` and commit the result.`;
  const older = `set up by v${o.installed}; this is v${o.version}`;
  const count = o.drift.length + o.notSetUp.length;
  if (count) {
    const also = o.outdated.length ? ` (${o.outdated.length} more only outdated: ${older})` : '';
    return {
      message: {
        level: 'error',
        code: 'drift',
        text: `Drift: ${count} difference(s) from what create-loop-guard writes${also}. ${fix}`,
      },
      code: 1,
      result: 'drift',
    };
  }
  if (o.outdated.length) {
    const text =
      `Outdated: ${older}; ${o.outdated.length} file(s) untouched since. Run npx create-loop-guard@` +
      `${o.version}${o.flags ?? ''} --yes to upgrade and commit the result.`;
    return o.strict
      ? {
          message: { level: 'error', code: 'outdated', text: `${text} (--strict fails on this)` },
          code: 1,
          result: 'outdated',
        }
      : { message: { level: 'warn', code: 'outdated', text }, code: 0, result: 'outdated' };
  }
  return {
    message: { level: 'info', code: 'in-sync', text: 'In sync: loop-guard is set up and current.' },
    code: 0,
    result: 'in-sync',
  };
}
