// --json: the plan and its result as data, for scripts and CI.
import type { DetectedTool } from '../scaffold/detect.ts';
import type { FileChange } from '../scaffold/plan.ts';
import type { Message } from './messages.ts';

export interface JsonReport {
  version: string;
  root: string;
  mode: string;
  tools: DetectedTool[];
  changes: Array<Pick<FileChange, 'path' | 'action' | 'reason' | 'notes'> & { fix?: string; diff?: string }>;
  result: string;
  exitCode: number;
  messages: Message[];
}

export function jsonChanges(changes: readonly FileChange[], diff: (c: FileChange) => string): JsonReport['changes'] {
  return changes.map((c) => ({
    path: c.path,
    action: c.action,
    reason: c.reason,
    notes: c.notes,
    ...(c.fix ? { fix: c.fix } : {}),
    ...(c.action === 'create' || c.action === 'update' || c.action === 'remove' ? { diff: diff(c) } : {}),
  }));
}
