// headKeyAt answers as the per-character walk it replaced: the key's first place in the head, unless a brace or a
// bracket comes before it after the line's own first character.
import { expect, it } from 'vitest';
import { headKeyAt } from '../../src/audit/lines.ts';

function walked(view: string, start: number, end: number, key: string, span: number): number {
  const at = view.slice(start, Math.min(end, start + span)).indexOf(key);
  if (at === -1) return -1;
  for (let i = start + 1; i < start + at; i++) if (view[i] === '{' || view[i] === '[') return -1;
  return start + at;
}

it('finds a line’s own key in its head and nothing past a nested object', () => {
  const line = '{"parentUuid":null,"isSidechain":false,"type":"user"}';
  expect(headKeyAt(line, 0, line.length, '"isSidechain":', 200)).toBe(line.indexOf('"isSidechain":'));
  const nested = '{"meta":{"a":1},"type":"event_msg"}';
  expect(headKeyAt(nested, 0, nested.length, '"type":"', 160)).toBe(-1);
  const listed = '{"tags":["x"],"type":"event_msg"}';
  expect(headKeyAt(listed, 0, listed.length, '"type":"', 160)).toBe(-1);
  // Past the span, or past the line's end, is not the head.
  expect(headKeyAt(line, 0, line.length, '"type":"', 20)).toBe(-1);
  expect(headKeyAt(`${line}\n${line}`, 0, 10, '"type":"', 200)).toBe(-1);
  // A line further into the chunk is read from its own start.
  const two = `${nested}\n${line}`;
  expect(headKeyAt(two, nested.length + 1, two.length, '"type":"', 160)).toBe(two.lastIndexOf('"type":"'));
});

it('answers as the walk on random heads of braces, brackets, quotes and keys', () => {
  const parts = ['{', '[', '}', ']', '"', ':', ',', 'a', '"type":"', '"isSidechain":', 'false', ' ', '\n'];
  let seed = 7;
  const next = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    // The high bits: an LCG's low bits repeat with a short period (its lowest one alternates).
    return seed >>> 8;
  };
  for (let n = 0; n < 20_000; n++) {
    let view = '';
    const len = next() % 40;
    for (let k = 0; k < len; k++) view += parts[next() % parts.length];
    const start = view.length ? next() % view.length : 0;
    const end = start + (next() % (view.length - start + 1));
    const key = next() % 2 ? '"type":"' : '"isSidechain":';
    const span = 1 + (next() % 60);
    expect(headKeyAt(view, start, end, key, span), JSON.stringify({ view, start, end, key, span })).toBe(
      walked(view, start, end, key, span),
    );
  }
});
