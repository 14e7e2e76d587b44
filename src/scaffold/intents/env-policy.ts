// The one rule for our environment keys in a user's config, whatever the format: add what is missing; a value
// equal to ours is ours only if an earlier run recorded it; a different value is the user's, even where an earlier
// run set it (they changed ours, so it is theirs now): kept and reported, replaced only with --force.

export interface EnvPolicySpec {
  /** The values we want. */
  values: Record<string, string>;
  /** Keys recorded as ours by an earlier run (we may update or remove them). */
  owned: readonly string[];
  /** Replace a user's different value for one of our keys. */
  force: boolean;
}

export type EnvStep =
  | { key: string; value: string; action: 'add' }
  /** Already holds our value; `ours` when an earlier run recorded it. */
  | { key: string; value: string; action: 'same'; ours: boolean }
  /** A different value replaced; `forced` when it was the user's (not recorded as ours). */
  | { key: string; value: string; action: 'replace'; current: unknown; forced: boolean }
  /** `changed`: an earlier run set this key, and the user has changed its value since. */
  | { key: string; value: string; action: 'keep'; current: unknown; changed: boolean };

export interface EnvPolicy {
  steps: EnvStep[];
  /** Keys that are ours after this run: added, replaced, or already equal and recorded. */
  setKeys: string[];
}

/** `lookup(key)` says whether the key is present and its current value. */
export function envPolicy(spec: EnvPolicySpec, lookup: (key: string) => { has: boolean; value?: unknown }): EnvPolicy {
  const owned = new Set(spec.owned);
  const steps: EnvStep[] = [];
  const setKeys: string[] = [];
  for (const [key, value] of Object.entries(spec.values)) {
    const found = lookup(key);
    if (!found.has) {
      steps.push({ key, value, action: 'add' });
      setKeys.push(key);
    } else if (found.value === value) {
      steps.push({ key, value, action: 'same', ours: owned.has(key) });
      if (owned.has(key)) setKeys.push(key);
    } else if (spec.force) {
      steps.push({ key, value, action: 'replace', current: found.value, forced: true });
      setKeys.push(key);
    } else {
      steps.push({ key, value, action: 'keep', current: found.value, changed: owned.has(key) });
    }
  }
  return { steps, setKeys };
}
