// Paths that are one file (a symlink inside the repository to another path we edit): planned in turn on the text
// the earlier intents left, then joined into one change, so the file is edited once.
import type { FileChange } from './file-change.ts';

/** What the plan knows of the repository's paths: each file's text and the real path behind each symlink. */
export interface SameFileInput {
  files: ReadonlyMap<string, string | null>;
  realPaths?: ReadonlyMap<string, string>;
}

export function realOf(input: Pick<SameFileInput, 'realPaths'>, path: string): string {
  return input.realPaths?.get(path) ?? path;
}

/** An import of a file into itself (CLAUDE.md a symlink to AGENTS.md): the file already holds what it would import. */
/** The text each real file has reached while its intents are planned in turn. */
export class SameFileTexts {
  private readonly texts = new Map<string, string | null>();
  constructor(private readonly input: SameFileInput) {}
  get(path: string): string | null {
    const real = realOf(this.input, path);
    return this.texts.has(real) ? (this.texts.get(real) as string | null) : (this.input.files.get(path) ?? null);
  }
  set(path: string, change: FileChange): void {
    if (change.action !== 'conflict') this.texts.set(realOf(this.input, path), change.after);
  }
  final(path: string): string | null {
    return this.get(path);
  }
}

/** One change per real file: the edits of paths that are one file (symlinks in the repository) joined in order. */
export function joinSameFile(changes: FileChange[], input: SameFileInput): FileChange[] {
  const groups = new Map<string, FileChange[]>();
  for (const c of changes) {
    const real = realOf(input, c.path);
    groups.set(real, [...(groups.get(real) ?? []), c]);
  }
  const out: FileChange[] = [];
  for (const [real, group] of groups) {
    if (group.length === 1) {
      out.push(group[0] as FileChange);
      continue;
    }
    const conflicts = group.filter((c) => c.action === 'conflict');
    if (conflicts.length) {
      out.push(...conflicts);
      continue;
    }
    const first = group[0] as FileChange;
    const last = group[group.length - 1] as FileChange;
    const paths = group.map((c) => c.path);
    const path = paths.includes(real) ? real : first.path;
    const links = paths.filter((p) => p !== path);
    const before = first.before;
    const after = last.after;
    const action: FileChange['action'] =
      before === after ? 'noop' : after === null ? 'remove' : before === null ? 'create' : 'update';
    const acting = group.filter((c) => c.action !== 'noop');
    out.push({
      ...first,
      path,
      action,
      before,
      after,
      reason: (acting.length ? acting : group).map((c) => c.reason).join('; '),
      notes: [
        ...group.flatMap((c) => c.notes),
        ...(action === 'noop'
          ? []
          : [`${links.join(', ')} ${links.length > 1 ? 'are' : 'is'} a symlink to ${path}: one file, edited once.`]),
      ],
    });
  }
  return out;
}
