// Types for source-edits.mjs (a build script, plain JavaScript), for the tests that import it.
export function applyEdits(source: string, edits: ReadonlyArray<{ pos: number; end: number; text: string }>): string;
