// The plan's part for a biome config: our entries put in (biome before 2.4, or unpinned), kept as recorded, or taken
// out (--remove, --no-biome-edit, a biome that honours the markers now), each recorded so --remove is byte for byte.
import { BIOME_CONFIGS } from '../tools/markers.ts';
import { addBiomeEntries, removeBiomeEntries } from './biome-config.ts';
import type { FileChange } from './file-change.ts';
import type { FileRecord, Manifest } from './manifest.ts';
import type { BiomeEdit } from './biome-config.ts';
import { change, wrap } from './plan-change.ts';

interface BiomePlanInput {
  mode: 'apply' | 'remove';
  force: boolean;
  biome?: BiomeEdit;
}
interface Texts {
  get(path: string): string | null;
}

const REASON = 'keep biome off the files we generate';

/** What a record of ours in a biome config holds, without the entries (they are re-derived each run). */
function withoutEntries(rec: FileRecord): FileRecord {
  const { formatterKey: _k, formatterEntries: _e, formatterWas: _w, containers: _c, ...rest } = rec;
  return rest;
}

export function planBiome(
  input: BiomePlanInput,
  prev: Manifest,
  texts: Texts,
): Array<{ change: FileChange; owned?: FileRecord }> {
  const out: Array<{ change: FileChange; owned?: FileRecord }> = [];
  const want = input.mode === 'apply' ? input.biome : undefined;
  for (const path of BIOME_CONFIGS) {
    const before = texts.get(path);
    if (before === null) continue;
    const rec = prev.files[path] ?? {};
    if (want?.path === path) {
      // Entries of a tool no longer set up (--remove --tools) go first; the containers stay, ours still in them.
      const stale = (rec.formatterEntries ?? []).filter((e) => !want.entries.includes(e));
      const cleaned = stale.length
        ? wrap(path, () => removeBiomeEntries(before, rec.formatterKey ?? want.key, stale, []))
        : null;
      const base = cleaned?.status === 'changed' ? cleaned.text : before;
      const r = wrap(path, () => addBiomeEntries(base, want));
      if (r.outcome.status === 'conflict') {
        out.push({ change: change(path, before, r.outcome, REASON) });
        continue;
      }
      // Ours: what this run added, and what an earlier run added that is still there.
      const entries = [...new Set([...(rec.formatterEntries ?? []), ...r.added])].filter((e) =>
        want.entries.includes(e),
      );
      if (!entries.length) continue; // every entry was the user's already
      const owned: FileRecord = {
        ...withoutEntries(rec),
        formatterKey: [...want.key],
        formatterEntries: entries,
        ...(rec.formatterEntries?.length
          ? rec.formatterWas !== undefined
            ? { formatterWas: rec.formatterWas }
            : {}
          : r.was !== undefined
            ? { formatterWas: r.was }
            : {}),
        ...(rec.containers || r.containers.length
          ? { containers: [...new Set([...(rec.containers ?? []), ...r.containers])] }
          : {}),
      };
      const outcome =
        r.outcome.status === 'unchanged' && base !== before ? { ...r.outcome, status: 'changed' as const } : r.outcome;
      out.push({ change: change(path, before, outcome, REASON), owned });
      continue;
    }
    if (!rec.formatterEntries?.length) continue;
    const key = rec.formatterKey ?? ['files', 'includes'];
    const outcome = wrap(path, () =>
      removeBiomeEntries(before, key, rec.formatterEntries ?? [], rec.containers ?? [], rec.formatterWas),
    );
    if (outcome.status === 'unchanged') continue;
    out.push({ change: change(path, before, outcome, 'take out our entries') });
  }
  return out;
}
