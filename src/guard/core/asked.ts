// The user's own words: which commands the latest user prompt asked for literally, kept as hashes only.
// A command the user typed is theirs to run, so the hang rule lets it through (with a note); the repeat rule still counts it.
import { hash64 } from './hash.ts';
import { normalizeCommand } from './normalize.ts';

/** Bounds: a prompt is read only this far, and at most this many spans of it are kept. */
export const ASKED_LIMITS = { promptChars: 8192, spans: 8, spanChars: 300 } as const;

// `npm run dev`, ```sh\nnpm run dev\n```, a line "$ npm run dev"; a bare one-line prompt is a span of its own.
const BACKTICKS_RE = /```[^\n`]*\n([\s\S]*?)```|`([^`\n]+)`/g;
const DOLLAR_LINE_RE = /^[ \t]*[$>][ \t]+(\S[^\n]*)$/gm;
// A one-line prompt that reads as a command: a runner's name first, or shell punctuation in a short line. Plain
// sentences ("fix the bug") are not kept, so such a prompt writes no state (the reset stays a lock-free read).
const COMMAND_LINE_RE =
  /^(?:npm|pnpm|yarn|bunx?|npx|deno|node|make|just|task|cargo|go|python3?|uv|poetry|pytest|docker|podman|kubectl|rails|bundle|php|mvn|gradle|\S*[-./=|&]\S*)(?:\s+\S+){0,12}$/;
// Wrappers some tools put around the user's text (Cline's <user_input mode="act">, OpenCode's JSON-quoted string).
const WRAPPER_RE = /^\s*<user_input[^>]*>([\s\S]*?)<\/user_input>\s*$/;

/** One hash per command-like span of the prompt, in order, deduplicated and bounded; [] when it has none. */
export function askedCommands(prompt: string | undefined): string[] {
  if (typeof prompt !== 'string' || prompt.trim() === '') return [];
  let text = prompt.length > ASKED_LIMITS.promptChars ? prompt.slice(0, ASKED_LIMITS.promptChars) : prompt;
  const wrapped = WRAPPER_RE.exec(text);
  if (wrapped) text = wrapped[1] as string;
  text = text.trim();
  if (text.length > 1 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1).trim();
  const spans: string[] = [];
  const add = (span: string): void => {
    for (const line of span.split('\n')) {
      const c = normalizeCommand(line.replace(/^[ \t]*\$[ \t]+/, ''));
      if (c && c.length <= ASKED_LIMITS.spanChars) spans.push(c);
    }
  };
  if (!text.includes('\n') && COMMAND_LINE_RE.test(text)) add(text);
  if (text.includes('`')) for (const m of text.matchAll(BACKTICKS_RE)) add((m[1] ?? m[2]) as string);
  if (text.includes('$ ') || text.includes('> ')) for (const m of text.matchAll(DOLLAR_LINE_RE)) add(m[1] as string);
  const hashes: string[] = [];
  for (const s of spans) {
    const h = hash64(s);
    if (!hashes.includes(h)) hashes.push(h);
    if (hashes.length === ASKED_LIMITS.spans) break;
  }
  return hashes;
}

/** True when `command` is, word for word (whitespace aside), one the user asked for. */
export function wasAsked(command: string, asked: readonly string[] | undefined): boolean {
  if (!asked || asked.length === 0) return false;
  return asked.includes(hash64(normalizeCommand(command)));
}
