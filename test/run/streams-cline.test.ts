// Cline's final message, read from the closing line of a real `cline --json` run (3.0.65, captured by the run-ladder
// suite against the scripted model; test/fixtures/PROVENANCE.md): what a scope refusal is read from.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { feedLine, newTally, readerFor } from '../../src/run/streams.ts';

const LINES = readFileSync(join(import.meta.dirname, 'fixtures', 'cline-3.0.65-run-result.jsonl'), 'utf8').split('\n');

describe('the text-only reader on Cline 3.0.65', () => {
  it('takes the final message from the run_result line', () => {
    const t = newTally('mock-model');
    const read = readerFor('text-only', t, () => 0);
    for (const l of LINES) feedLine(read, l);
    expect(t.finalText).toBe(
      "I can't do this: the repository's PreToolUse hook blocks every network call (team policy).",
    );
  });
});
