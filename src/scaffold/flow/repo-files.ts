// Reading the files an install looks at: inside the repository through every parent, or in $HOME when asked.
import { FileFormatError } from '../../edit/outcome.ts';
import { MANIFEST_PATH, type Manifest, parseManifest } from '../manifest.ts';
import { insidePath } from '../paths.ts';
import { PlanError } from '../plan.ts';
import { readConfig } from '../read-config.ts';

/** A file the plan reads: resolved inside the root through every parent, regular, under the size cap. */
export function readRepoFile(root: string, rel: string): string | null {
  const text = readConfig(insidePath(root, rel), rel);
  // An empty JSON config is a reasonable thing to find: it means {}.
  if (text !== null && rel.endsWith('.json') && text.trim() === '') return '{}\n';
  return text;
}

/** readRepoFile for a file we only look at: an unreadable one counts as absent. */
export function readRepoFileSafe(root: string, rel: string): string | null {
  try {
    return readRepoFile(root, rel);
  } catch {
    return null;
  }
}

export function readHomeFile(path: string): string | null {
  try {
    return readConfig(path, path);
  } catch {
    return null;
  }
}

/** The ownership record, or null when there is none; a broken one is a PlanError (exit 2, its file and line). */
export function loadManifest(root: string): Manifest | null {
  const text = readRepoFile(root, MANIFEST_PATH);
  if (text === null) return null;
  try {
    return parseManifest(text);
  } catch (err) {
    if (err instanceof FileFormatError) throw new PlanError(MANIFEST_PATH, err.message, err.fix);
    throw err;
  }
}
