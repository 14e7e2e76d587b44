// The human report: tools with evidence, one line per file, notes and conflicts.
import type { DetectedTool } from '../scaffold/detect.ts';
import type { Action, FileChange } from '../scaffold/plan.ts';
import { TOOLS } from '../tools/index.ts';
import type { Palette } from './colors.ts';
import { planTense } from './tense.ts';

const LABEL: Record<Action, string> = {
  create: 'create',
  update: 'update',
  noop: 'up to date',
  conflict: 'conflict',
  remove: 'delete',
};

export function toolsReport(tools: readonly DetectedTool[], c: Palette): string {
  if (!tools.length) return '';
  const lines = tools.map(
    (t) =>
      `  ${c.bold(TOOLS[t.name].label.padEnd(12))} ${c.dim(t.evidence.length ? t.evidence.join(', ') : '(from --tools)')}`,
  );
  return `Agent tools:\n${lines.join('\n')}\n`;
}

export function changeLine(ch: FileChange, c: Palette): string {
  const color =
    ch.action === 'conflict' ? c.red : ch.action === 'noop' ? c.dim : ch.action === 'remove' ? c.yellow : c.green;
  const reason = ch.action === 'noop' || ch.action === 'conflict' ? '' : c.dim(`  ${ch.reason}`);
  return `  ${color(LABEL[ch.action].padEnd(10))} ${ch.path}${reason}`;
}

/** `tense`: how notes are worded — nothing has been written yet when this is shown. */
export function filesReport(changes: readonly FileChange[], c: Palette, tense: 'would' | 'will' = 'will'): string {
  if (!changes.length) return '';
  const lines = [`Files:`];
  for (const ch of changes) {
    lines.push(changeLine(ch, c));
    for (const note of ch.notes) lines.push(`             ${c.yellow('!')} ${planTense(note, tense)}`);
    if (ch.action === 'conflict') {
      lines.push(`             ${c.red('✗')} ${ch.reason}`);
      if (ch.fix) lines.push(`             ${c.bold('fix:')} ${ch.fix}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function isDrift(ch: FileChange): boolean {
  return ch.action !== 'noop';
}
