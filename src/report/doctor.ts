// Two reporters over one result: the checklist for people, and the same data as JSON.
import type { Palette } from './colors.ts';
import type { Check, Group } from '../doctor/types.ts';
import { tally } from '../doctor/verdict.ts';
import { EXIT } from '../exit-codes.ts';

/** The heading both the install's next steps and doctor put over what is left for the user's own machine. */
export const MACHINE_STEPS = 'Left to do on this machine';

export interface DoctorReport {
  version: string;
  root: string;
  tools: Array<{
    name: string;
    checks: Array<{
      id: string;
      ok: boolean;
      message: string;
      info?: boolean;
      step?: boolean;
      cause?: string;
      fix?: string;
    }>;
  }>;
  /** `broken`: a ✗ in the repository or the install; `steps`: only steps left on this machine; `working`: neither. */
  verdict: 'working' | 'steps' | 'broken';
  exitCode: number;
}

/** 1 when something is broken (or, with `strict`, a step is left); a step left on this machine alone is 0. */
export function exitCodeOf(setUp: boolean, groups: readonly Group[], strict = false): number {
  if (!setUp) return EXIT.error;
  const t = tally(groups);
  return t.broken.length || (strict && t.steps.length) ? EXIT.drift : EXIT.ok;
}

function verdictOf(groups: readonly Group[]): DoctorReport['verdict'] {
  const t = tally(groups);
  return t.broken.length ? 'broken' : t.steps.length ? 'steps' : 'working';
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
        ...(c.step ? { step: true } : {}),
        ...(c.cause ? { cause: c.cause } : {}),
        ...(c.ok || c.fix === undefined ? {} : { fix: c.fix }),
      })),
    })),
    verdict: verdictOf(groups),
    exitCode,
  };
}

export function textReport(
  version: string,
  root: string,
  groups: readonly Group[],
  c: Palette,
  strict = false,
): string {
  const lines = [`create-loop-guard doctor v${version} — ${root}`];
  const steps: Array<{ label: string; check: Check }> = [];
  for (const g of groups) {
    lines.push('', c.bold(g.label));
    for (const check of g.checks) {
      if (check.cause) continue; // said once, by the check that explains it
      if (check.info) lines.push(`  ${c.dim('•')} ${check.message}`);
      else if (check.ok) lines.push(`  ${c.green('✓')} ${check.message}`);
      else if (check.step) {
        lines.push(`  ${c.yellow('○')} ${check.message} ${c.dim('(a step on this machine, below)')}`);
        steps.push({ label: g.label, check });
      } else lines.push(`  ${c.red('✗')} ${check.message}${check.fix ? ` — ${c.bold('fix:')} ${check.fix}` : ''}`);
    }
  }
  const t = tally(groups);
  if (steps.length) {
    lines.push('', c.bold(`${MACHINE_STEPS} (no file in the repository can do these):`));
    for (const { label, check } of steps) lines.push(`  ${c.yellow('○')} ${label}: ${check.fix ?? check.message}`);
  }
  lines.push('');
  const passed = `${t.passed} check${t.passed === 1 ? '' : 's'} passed`;
  const left = `${t.steps.length} step${t.steps.length === 1 ? '' : 's'} left on this machine`;
  if (t.broken.length)
    lines.push(
      c.red(
        `Broken: ${t.broken.length} problem${t.broken.length === 1 ? '' : 's'} in the repository or the ` +
          `install (${t.broken.map((x) => x.id).join(', ')}); ${passed}${t.steps.length ? `; ${left}` : ''}.`,
      ),
    );
  else if (t.steps.length)
    lines.push(
      (strict ? c.red : c.yellow)(
        `The loop guard works in this repository (${passed}); ${left}${strict ? ' (--strict fails on them)' : ''}.`,
      ),
    );
  else lines.push(c.green(`All ${t.passed} checks passed: the loop guard works here.`));
  return `${lines.join('\n')}\n`;
}

export function notSetUpText(root: string): string {
  return (
    `loop-guard is not set up in ${root}: no .agents/loop-guard.json, no guard file and no hook entries. ` +
    `Run npx create-loop-guard to set it up.\n`
  );
}
