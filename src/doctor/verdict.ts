// Pure: sorts the doctor's ✗ into "broken" (the repository or the install is wrong) and "one step left on this
// machine" (something only the user's own setup can do), and folds a ✗ that only repeats another's cause into it.
import { GUARD_PATH, TOOLS, type ToolName } from '../tools/index.ts';
import { INERT_WHY } from '../scaffold/guard-file.ts';
import type { Check, Group } from './types.ts';

/** How the node check says that the tool has no hook command of ours to run. */
const NO_COMMAND = /^no loop-guard hook command/;

/** A fix that needs no change in the repository: no rerun of ours writes it. */
const machineOnly = (check: Check) => !check.fix?.includes('--yes');

function standing(check: Check): Check {
  if (check.ok || check.info) return check;
  const what = check.id.slice(check.id.indexOf('.') + 1);
  if (what === 'trust' || ((what === 'env' || what === 'git') && machineOnly(check))) return { ...check, step: true };
  return check;
}

/** The failed check that explains `check`, if any. */
function causeOf(check: Check, failed: ReadonlySet<string>, group: Group, guardMissing: boolean): string | undefined {
  if (check.ok || check.info) return undefined;
  const tool = group.name;
  const what = check.id.slice(check.id.indexOf('.') + 1);
  // With no hook entry at all there is no command to run or replay: the hooks line says it all.
  const noCommand = group.checks.some((c) => c.id === `${tool}.node` && !c.ok && NO_COMMAND.test(c.message));
  if ((what === 'node' || what === 'replay') && failed.has(`${tool}.hooks`) && noCommand) return `${tool}.hooks`;
  if (what === 'git' && failed.has(`${tool}.env`)) return `${tool}.env`;
  const runsGuard = tool !== 'repo' && TOOLS[tool as ToolName].intents.some((i) => i.path === GUARD_PATH);
  if ((what === 'node' || what === 'replay' || what === 'load') && guardMissing && runsGuard) return 'repo.guard';
  return undefined;
}

export function settle(groups: readonly Group[]): Group[] {
  const all = groups.flatMap((g) => g.checks);
  const failed = new Set(all.filter((c) => !c.ok && !c.info).map((c) => c.id));
  // Only a missing or inert guard file explains every replay failing; an edited one is worth seeing fail in each tool.
  const guardMissing = all.some(
    (c) => c.id === 'repo.guard' && !c.ok && (/ is missing\b/.test(c.message) || c.message.endsWith(INERT_WHY)),
  );
  return groups.map((g) => ({
    ...g,
    checks: g.checks.map((check) => {
      const cause = causeOf(check, failed, g, guardMissing);
      return standing(cause ? { ...check, cause } : check);
    }),
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
