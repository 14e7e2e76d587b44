// Two reporters over one result: the checklist for people, and the same data as JSON.
import type { Palette } from './colors.ts';
import type { Group } from '../doctor/types.ts';
import { EXIT } from '../exit-codes.ts';

export interface DoctorReport {
  version: string;
  root: string;
  tools: Array<{
    name: string;
    checks: Array<{ id: string; ok: boolean; message: string; info?: boolean; fix?: string }>;
  }>;
  exitCode: number;
}

export function exitCodeOf(setUp: boolean, groups: readonly Group[]): number {
  if (!setUp) return EXIT.error;
  return groups.some((g) => g.checks.some((c) => !c.ok)) ? EXIT.drift : EXIT.ok;
}

export function jsonReport(version: string, root: string, groups: readonly Group[], exitCode: number): DoctorReport {
  return {
    version,
    root,
    tools: groups.map((g) => ({
      name: g.name,
      checks: g.checks.map((c) => ({
        id: c.id,
        ok: c.ok,
        message: c.message,
        ...(c.info ? { info: true } : {}),
        ...(c.ok || c.fix === undefined ? {} : { fix: c.fix }),
      })),
    })),
    exitCode,
  };
}

export function textReport(version: string, root: string, groups: readonly Group[], c: Palette): string {
  const lines = [`create-loop-guard doctor v${version} — ${root}`];
  for (const g of groups) {
    lines.push('', c.bold(g.label));
    for (const check of g.checks) {
      if (check.info) lines.push(`  ${c.dim('•')} ${check.message}`);
      else if (check.ok) lines.push(`  ${c.green('✓')} ${check.message}`);
      else lines.push(`  ${c.red('✗')} ${check.message}${check.fix ? ` — ${c.bold('fix:')} ${check.fix}` : ''}`);
    }
  }
  const all = groups.flatMap((g) => g.checks).filter((x) => !x.info);
  const failed = all.filter((x) => !x.ok);
  lines.push('');
  lines.push(
    failed.length
      ? c.red(`${failed.length} of ${all.length} checks failed: ${failed.map((x) => x.id).join(', ')}.`)
      : c.green(`All ${all.length} checks passed: the loop guard works here.`),
  );
  return `${lines.join('\n')}\n`;
}

export function notSetUpText(root: string): string {
  return `loop-guard is not set up in ${root}: no .agents/loop-guard.json, no guard file and no hook entries. Run npx create-loop-guard to set it up.\n`;
}
