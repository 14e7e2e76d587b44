// Pure checks on what create-loop-guard wrote: the manifest and the shared guard file.
import { readOwnedHeader } from '../edit/owned-file.ts';
import { guardState, INERT_WHY } from '../scaffold/guard-file.ts';
import { MANIFEST_PATH, type Manifest, parseManifest } from '../scaffold/manifest.ts';
import { GUARD_PATH } from '../tools/index.ts';
import { OLD_GUARD_PATH } from '../tools/markers.ts';
import { type Check, fail, pass, RERUN } from './types.ts';

export type ManifestRead = { manifest: Manifest } | { missing: true } | { error: string };

export function readManifestText(text: string | null): ManifestRead {
  if (text === null) return { missing: true };
  try {
    return { manifest: parseManifest(text) };
  } catch (err) {
    // The first line: the code frame under it would break doctor's one line per cause.
    return { error: ((err as Error).message.split('\n')[0] ?? '').trim() };
  }
}

/** `repo.manifest`: the record of what was installed exists, parses, and comes from this version. */
export function manifestCheck(read: ManifestRead, version: string): Check {
  const id = 'repo.manifest';
  if ('missing' in read)
    return fail(
      id,
      `${MANIFEST_PATH} is missing, so upgrades and --remove cannot tell what create-loop-guard added`,
      `${RERUN} (it rebuilds the file from what it finds)`,
    );
  if ('error' in read) return fail(id, `${MANIFEST_PATH}: ${read.error}`, `delete ${MANIFEST_PATH} and run ${RERUN}`);
  const m = read.manifest;
  if (m.version !== version)
    return fail(
      id,
      `${MANIFEST_PATH} was written by v${m.version}; this create-loop-guard is v${version}`,
      `${RERUN} to upgrade everything it installed`,
    );
  return pass(id, `${MANIFEST_PATH} records ${m.tools.length ? m.tools.join(', ') : 'no tools'} (v${m.version})`);
}

/** `repo.guard`: the hook file is ours (header), runs as the hook reads it, and is the code this version ships. */
export function guardFileCheck(text: string | null, expected: string, version: string, oldNamePresent = false): Check {
  const id = 'repo.guard';
  if (text === null && oldNamePresent)
    return fail(
      id,
      `${GUARD_PATH} is missing: the guard is installed under its old name ${OLD_GUARD_PATH} (set up by an older version)`,
      `${RERUN} to move it to the new name and update the hook entries`,
    );
  if (text === null)
    return fail(
      id,
      `${GUARD_PATH} is missing, so no tool here runs the loop guard (hooks and plugins load it)`,
      `${RERUN} to reinstall it`,
    );
  const header = readOwnedHeader(text);
  if (!header)
    return fail(
      id,
      `${GUARD_PATH} has no create-loop-guard header, so it is not our guard`,
      `move it away, then ${RERUN}`,
    );
  const state = guardState(text, expected);
  if (state === 'inert') return fail(id, `${GUARD_PATH}: ${INERT_WHY}`, `${RERUN} to rewrite it`);
  if (header.version !== version)
    return fail(
      id,
      `${GUARD_PATH} is v${header.version}; this create-loop-guard is v${version}`,
      `${RERUN} to upgrade it`,
    );
  if (state === 'differs')
    return fail(
      id,
      `${GUARD_PATH} carries the v${version} header but differs from the guard v${version} ships (edited or replaced?)`,
      `${RERUN} to restore it`,
    );
  const as =
    state === 'same-code' ? ' (reformatted or with other line endings: the same code, and the hook runs it)' : '';
  return pass(id, `${GUARD_PATH} is our guard, v${version}, the same version as this CLI${as}`);
}
