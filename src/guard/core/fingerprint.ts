import { hash64 } from './hash.ts';
import { normalizeCommand, normalizeOutput } from './normalize.ts';

/** Outputs longer than this are fingerprinted by their head and tail, so a huge log costs the same as a short one. */
export const MAX_FINGERPRINT_CHARS = 256 * 1024;
const HALF = MAX_FINGERPRINT_CHARS / 2;

/** The identity of a command: its whitespace-normalized text. */
export function commandKey(command: string): string {
  return hash64(normalizeCommand(command));
}

/** Head and tail of a long output; the middle of a huge log rarely decides whether two runs are the same. */
export function clipForFingerprint(output: string): string {
  if (output.length <= MAX_FINGERPRINT_CHARS) return output;
  return `${output.slice(0, HALF)}\n<clipped>\n${output.slice(-HALF)}`;
}

/** The identity of a result: the normalized output plus the exit code where the tool reports one. */
export function resultKey(output: string, exitCode: number | undefined): string {
  const normalized = normalizeOutput(clipForFingerprint(output));
  return hash64(`${exitCode ?? ''}\u0000${normalized}`);
}
