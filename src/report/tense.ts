// The editors word their notes as done ("Replaced v0.1.0 with v0.1.1"); before anything is written the report must
// say what would happen instead, so a read-only --check never claims it changed a file.
const VERBS: ReadonlyArray<[RegExp, string]> = [
  [/^Replaced /, 'replace '],
  [/^Upgraded /, 'upgrade '],
  [/^Updated /, 'update '],
  [/^Removed /, 'remove '],
  [/^Overwrote /, 'overwrite '],
  [/^Kept /, 'keep '],
];

/** `mode`: 'would' for a read-only run (--check, --dry-run), 'will' for a plan shown before writing. */
export function planTense(note: string, mode: 'would' | 'will'): string {
  for (const [re, verb] of VERBS)
    if (re.test(note)) return `${mode === 'would' ? 'Would' : 'Will'} ${note.replace(re, verb)}`;
  return note
    .replace(/; it is replaced\.$/, `; it ${mode} be replaced.`)
    .replace(/; rewritten as LF\./, `; ${mode === 'would' ? 'would be' : 'will be'} rewritten as LF.`);
}
