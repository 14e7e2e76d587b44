// One planned file change from an editor's outcome, and the error a file we cannot parse becomes: shared by the plan
// and the planners beside it (biome-plan.ts), which may not import plan.ts itself.
import { type EditOutcome, FileFormatError } from '../edit/outcome.ts';
import type { Action, FileChange } from './file-change.ts';

/** A user file that cannot be parsed: exit 2, nothing written. */
export class PlanError extends Error {
  constructor(
    public readonly path: string,
    message: string,
    public readonly fix: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'PlanError';
  }
}

function actionFor(before: string | null, outcome: EditOutcome): Action {
  if (outcome.status === 'conflict') return 'conflict';
  if (outcome.status === 'unchanged') return 'noop';
  return before === null ? 'create' : 'update';
}

export function change(
  path: string,
  before: string | null,
  outcome: EditOutcome,
  reason: string,
  extra: Partial<FileChange> = {},
): FileChange {
  const action = actionFor(before, outcome);
  if (outcome.status === 'conflict') {
    return { path, action, before, after: before, reason: outcome.reason, notes: [], fix: outcome.fix, ...extra };
  }
  return { path, action, before, after: outcome.text, reason, notes: outcome.notes, ...extra };
}

export function wrap<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof FileFormatError) throw new PlanError(path, err.message, err.fix);
    throw err;
  }
}
