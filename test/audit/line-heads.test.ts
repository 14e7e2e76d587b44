// A Codex line's worth read from its head must be what the needles say of the whole line, on the real transcripts
// and on a generated history shaped like long sessions (where the head does not tell, the needles decide).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module of the benchmark, without types
import { codexSession } from '../../bench/history-shape.mjs';
import { CODEX_NEEDLES, codexLineWorth } from '../../src/audit/formats/codex.ts';
import { transcripts } from './fixtures.ts';

function jsonlUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? jsonlUnder(p) : n.endsWith('.jsonl') ? [p] : [];
  });
}

it('the head of a Codex line says what the needles say, for most lines', () => {
  const home = mkdtempSync(join(tmpdir(), 'lg-heads-'));
  try {
    codexSession(home, '/home/dev/p', 2e6, 7);
    let lines = 0;
    let told = 0;
    for (const file of [...jsonlUnder(join(transcripts, 'codex')), ...jsonlUnder(join(home, '.codex'))]) {
      // One-byte text, as the scanner reads it.
      for (const line of readFileSync(file, 'latin1').split('\n')) {
        if (!line) continue;
        lines++;
        const head = codexLineWorth(line, 0, line.length);
        if (head === undefined) continue;
        told++;
        expect(head, line.slice(0, 200)).toBe(CODEX_NEEDLES.some((n) => line.includes(n)));
      }
    }
    expect(told / lines).toBeGreaterThan(0.8);
    // A line cut off mid-write, and one whose type comes after a nested object, are left to the needles.
    expect(codexLineWorth('{"timestamp":"t","type":"response_item","payload":{"type":"function_call"', 0, 72)).toBe(
      undefined,
    );
    const nested = '{"meta":{"a":1},"type":"event_msg","payload":{"type":"token_count"}}';
    expect(codexLineWorth(nested, 0, nested.length)).toBe(undefined);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
