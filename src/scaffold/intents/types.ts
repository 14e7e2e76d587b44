// What every intent kind gets and gives back: the file's text and our earlier record in; the edit and what of it
// is ours out. The plan (scaffold/plan.ts) is a loop over intents that knows none of the kinds.
import type { EditOutcome } from '../../edit/outcome.ts';
import type { Intent, OwnedAsset } from '../../tools/index.ts';
import type { FileRecord } from '../manifest.ts';

/** Rendered text of everything we own. */
export type Assets = Record<OwnedAsset, string> & {
  agentsBlock: string;
  /** Our block in .gitattributes: the guard file marked linguist-generated. */
  gitattributesBlock: string;
  profileBlock: string;
  profileFish: string;
};

export interface IntentContext {
  /** The file's current text; null when it does not exist. */
  before: string | null;
  force: boolean;
  version: string;
  assets: Assets;
}

export interface Planned {
  outcome: EditOutcome;
  /** What of this file is ours after the edit, for the manifest. */
  owned: FileRecord;
  /** One line on what happens to this file. */
  reason: string;
  /** Notes added after the editor's own, even on a conflict (e.g. a kept value that makes agents wait). */
  notes?: string[];
  /** Mode and report hints for the file change. */
  extra?: { mode?: number; generated?: boolean };
}

export type Removed =
  | { kind: 'edit'; outcome: EditOutcome; becameEmpty: boolean; reason: string }
  | { kind: 'delete'; reason: string }
  | { kind: 'noop'; reason: string };

export interface IntentHandler<I extends Intent> {
  /** Put our part in place; `record` is what an earlier run recorded as ours (a copy, free to change). */
  plan(intent: I, ctx: IntentContext, record: FileRecord): Planned;
  /** Take out exactly what `record` says is ours. `before` is never null here. */
  remove(intent: I, ctx: IntentContext & { before: string }, record: FileRecord | undefined): Removed;
}
