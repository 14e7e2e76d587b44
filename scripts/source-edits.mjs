// Text edits by position, for the build's source rewrites (readable-source.mjs, esm-to-script.mjs): each edit replaces
// source[pos, end) with text. Overlapping edits are refused, because the second would splice into the first's text.

/** `source` with `edits` ({ pos, end, text }) applied, in any order. */
export function applyEdits(source, edits) {
  const sorted = [...edits].sort((a, b) => a.pos - b.pos || a.end - b.end);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.pos < at) throw new Error(`source-edits: an edit at ${e.pos} overlaps the one ending at ${at}`);
    out += source.slice(at, e.pos) + e.text;
    at = e.end;
  }
  return out + source.slice(at);
}
