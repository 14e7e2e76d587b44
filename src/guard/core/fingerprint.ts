import { commandShape } from './command-key.ts';
import { hash64 } from './hash.ts';
import { normalizeOutput } from './normalize.ts';

/** Outputs longer than this are fingerprinted by their head and tail, so a huge log costs the same as a short one. */
export const MAX_FINGERPRINT_CHARS = 256 * 1024;
const HALF = MAX_FINGERPRINT_CHARS / 2;

/** The identity of a command: its canonical form, shared by rewordings that cannot change what runs
 * (command-key.ts). */
export function commandKey(command: string): string {
  // One event asks for the same command's key several times (pre, post, ladder), and a process that lives on (the
  // plugin, audit) sees the same commands again and again: answers are kept, a bounded few.
  let key = keys.get(command);
  if (key === undefined) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key = hash64(commandShape(command).key);
    keys.set(command, key);
  }
  return key;
}
const MAX_KEYS = 512;
const keys = new Map<string, string>();

/** Head and tail of a long output; the middle of a huge log rarely decides whether two runs are the same. */
export function clipForFingerprint(output: string): string {
  if (output.length <= MAX_FINGERPRINT_CHARS) return output;
  return `${output.slice(0, HALF)}\n<clipped>\n${output.slice(-HALF)}`;
}

/**
 * The identity of a result: the normalized output. The exit code is not part of it: a trimming pipe or a
 * `|| true` fallback changes the code without changing what ran, and an empty result is the same whatever code the
 * tool reports for it. When `command` is given, the lines its dropped `|| echo …` fallbacks print are left out too.
 */
export function resultKey(output: string, _exitCode?: number, command?: string): string {
  let text = output;
  if (command?.includes('||')) {
    for (const printed of commandShape(command).fallbackOutputs) text = dropLastLine(text, printed);
  }
  return hash64(normalizeOutput(clipForFingerprint(text), command === undefined ? undefined : { command }));
}

/** The output without the last line that is exactly `line` (what a fallback echo printed). */
function dropLastLine(text: string, line: string): string {
  const trimmed = text.replace(/\s+$/, '');
  if (trimmed === line) return '';
  if (!trimmed.endsWith(`\n${line}`)) return text;
  return trimmed.slice(0, trimmed.length - line.length - 1);
}
