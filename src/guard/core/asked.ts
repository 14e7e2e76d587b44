// The user's own words: which commands the latest user prompt asked for literally, kept as hashes only.
// A command the user typed is theirs to run, so the hang rule lets it through (with a note); the repeat rule still
// counts it.
import { hash64 } from './hash.ts';
import { normalizeCommand } from './normalize.ts';

/** Bounds: a prompt is read only this far, and at most this many spans of it are kept. */
export const ASKED_LIMITS = { promptChars: 8192, spans: 8, spanChars: 300 } as const;

// `npm run dev`, ```sh\nnpm run dev\n```, a line "$ npm run dev"; a bare one-line prompt is a span of its own.
const BACKTICKS_RE = /```[^\n`]*\n([\s\S]*?)```|`([^`\n]+)`/g;
const DOLLAR_LINE_RE = /^[ \t]*[$>][ \t]+(\S[^\n]*)$/gm;
// A one-line prompt that reads as a command: a runner's name first, or shell punctuation in its first word, and at
// most 13 words. Plain sentences ("fix the bug") are not kept, so such a prompt writes no state (the reset stays a
// lock-free read). Plain string work: a regex for this cost ~0.1 ms of every user turn to compile.
const RUNNERS = new Set(
  (
    'npm pnpm yarn bun bunx npx deno node make just task cargo go python python3 uv poetry pytest docker ' +
    'podman kubectl rails bundle php mvn gradle gh az gcloud aws firebase vercel wrangler'
  ).split(' '),
);
function isCommandLine(text: string): boolean {
  if (text.includes('\n')) return false;
  const words = text.split(' ').filter((w) => w !== '');
  const first = words[0] ?? '';
  if (words.length > 13 || (!RUNNERS.has(first) && !['-', '.', '/', '=', '|', '&'].some((c) => first.includes(c))))
    return false;
  return true;
}
// Wrappers some tools put around the user's text (Cline's <user_input mode="act">, OpenCode's JSON-quoted string).
const WRAPPER_RE = /^\s*<user_input[^>]*>([\s\S]*?)<\/user_input>\s*$/;

/** One hash per command-like span of the prompt, in order, deduplicated and bounded; [] when it has none. */
export function askedCommands(prompt: string | undefined): string[] {
  if (typeof prompt !== 'string' || prompt.trim() === '') return [];
  let text = prompt.length > ASKED_LIMITS.promptChars ? prompt.slice(0, ASKED_LIMITS.promptChars) : prompt;
  const wrapped = text.includes('<user_input') ? WRAPPER_RE.exec(text) : null;
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
  if (isCommandLine(text)) add(text);
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
