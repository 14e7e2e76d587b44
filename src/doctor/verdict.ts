// Pure: sorts the doctor's ✗ into "broken" (the repository or the install is wrong) and "one step left on this
// machine" (something only the user's own setup can do), and folds a ✗ that only repeats another's cause into it.
import { GUARD_PATH, TOOLS, type ToolName } from '../tools/index.ts';
import type { Check, Group } from './types.ts';

/** A fix that needs no change in the repository: no rerun of ours writes it. */
const machineOnly = (check: Check) => !check.fix?.includes('--yes');

function standing(check: Check): Check {
  if (check.ok || check.info) return check;
  const what = check.id.slice(check.id.indexOf('.') + 1);
  if (what === 'trust' || ((what === 'env' || what === 'git') && machineOnly(check))) return { ...check, step: true };
  return check;
}

/** The failed check that explains `check`, if any: a ✗ whose fix also fixes `check` shows alone. */
function causeOf(check: Check, failed: ReadonlySet<string>, group: Group, guardBroken: boolean): string | undefined {
  if (check.ok || check.info || check.cause) return check.cause;
  const tool = group.name;
  const what = check.id.slice(check.id.indexOf('.') + 1);
  const runsGuard = tool !== 'repo' && TOOLS[tool as ToolName].intents.some((i) => i.path === GUARD_PATH);
  // A guard file that is missing, not ours or edited explains every replay failing: its fix restores all of them.
  if ((what === 'node' || what === 'replay' || what === 'load') && guardBroken && runsGuard) return 'repo.guard';
  // A hook entry missing, broken or switched off is why its command does not run or answer: the hooks line says it.
  if ((what === 'node' || what === 'replay') && failed.has(`${tool}.hooks`)) return `${tool}.hooks`;
  if (what === 'git' && failed.has(`${tool}.env`)) return `${tool}.env`;
  // A plugin file missing or edited is why it does not load, and one that does not load sets nothing for the shell.
  if ((what === 'load' || what === 'git') && failed.has(`${tool}.plugin`)) return `${tool}.plugin`;
  if (what === 'git' && failed.has(`${tool}.load`)) return `${tool}.load`;
  return undefined;
}

export function settle(groups: readonly Group[]): Group[] {
  const all = groups.flatMap((g) => g.checks);
  const failed = new Set(all.filter((c) => !c.ok && !c.info).map((c) => c.id));
  const guardBroken = failed.has('repo.guard');
  const causes = new Map<string, string>();
  for (const g of groups)
    for (const check of g.checks) {
      const cause = causeOf(check, failed, g, guardBroken);
      if (cause) causes.set(check.id, cause);
    }
  // A cause explained in turn by another (git ← load ← the guard file) points at the one line shown.
  const root = (id: string): string => {
    let at = id;
    for (let i = 0; i < 5 && causes.has(at); i++) at = causes.get(at) as string;
    return at;
  };
  return groups.map((g) => ({
    ...g,
    checks: g.checks.map((check) => standing(causes.has(check.id) ? { ...check, cause: root(check.id) } : check)),
  }));
}

export interface Tally {
  passed: number;
  broken: Check[];
  steps: Check[];
  /** Failed checks shown through their cause. */
  folded: number;
}

export function tally(groups: readonly Group[]): Tally {
  const counted = groups.flatMap((g) => g.checks).filter((c) => !c.info);
  return {
    passed: counted.filter((c) => c.ok).length,
    broken: counted.filter((c) => !c.ok && !c.step && !c.cause),
    steps: counted.filter((c) => !c.ok && c.step && !c.cause),
    folded: counted.filter((c) => !c.ok && c.cause).length,
  };
}
