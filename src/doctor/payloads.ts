// The real hook payloads shipped in the package (assets/payloads), read once per run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../assets.ts';

export type Json = Record<string, unknown>;

export function payloadsDir(): string {
  return join(packageRoot, 'assets', 'payloads');
}

/** A payload by path under assets/payloads, e.g. `claude/PreToolUse-failure.json`. */
export function loadPayload(rel: string): Json {
  return JSON.parse(readFileSync(join(payloadsDir(), rel), 'utf8')) as Json;
}
