// The guard file judged the way the hook reads it, one verdict for --check, --yes and doctor: does it run, and is it
// the code this version ships? A formatter's pass over the loader part or a CRLF checkout is the same code; a file
// whose body the hook cannot find lets every command through, whatever its text looks like once normalized.
import { codeFingerprint } from '../edit/owned-file.ts';
import { bodyRange } from '../guard/body-range.ts';

/** The marks loaders before body-range.ts required exactly (LF only): what an older loader part reads. */
const STRICT_OPEN = '\n/*@loop-guard-body\n';
const STRICT_CLOSE = '\n*/\n';
const MARK = '\n/*@loop-guard-body';

export type GuardState =
  /** Byte for byte what this version writes. */
  | 'same'
  /** The same code as a formatter or a checkout left it (the loader re-indented, CRLF, a BOM): it runs as ours does. */
  | 'same-code'
  /** The hook would find no body in it and let every command through. */
  | 'inert'
  /** Runs, but is not the code this version ships (another version, or edited). */
  | 'differs';

/** The body as the hook reads it, its line endings made LF for comparing; null when the hook would find none. */
function bodyOf(text: string): string | null {
  const buf = Buffer.from(text, 'latin1');
  const range = bodyRange(buf);
  return range ? buf.toString('latin1', range[0], range[1]).replace(/\r\n/g, '\n') : null;
}

/** The loader part: everything before the body's mark. */
function headOf(text: string): string {
  const at = text.lastIndexOf(MARK);
  return at < 0 ? text : text.slice(0, at);
}

/** `text` of the guard file against `desired`, what this version writes. */
export function guardState(text: string, desired: string): GuardState {
  if (text === desired) return 'same';
  // No body at all is another file under our header (edited or replaced), which doctor's replays show tool by tool.
  if (!text.includes('@loop-guard-body')) return 'differs';
  const ownLoader = codeFingerprint(headOf(text)) === codeFingerprint(headOf(desired));
  // Our loader part reads CRLF and a BOM (body-range.ts); any other loader part is an older one, which read only LF.
  const runs = ownLoader
    ? bodyOf(text) !== null
    : text.lastIndexOf(STRICT_OPEN) >= 0 && text.lastIndexOf(STRICT_CLOSE) > text.lastIndexOf(STRICT_OPEN);
  if (!runs) return 'inert';
  return ownLoader && bodyOf(text) === bodyOf(desired) ? 'same-code' : 'differs';
}

/** In words, for --check and doctor: why an inert guard does nothing. */
export const INERT_WHY =
  'the hook finds no guard code in it (its line endings were changed, by a core.autocrlf checkout or a formatter?), ' +
  'so it lets every command through';
