// The text layer under every editor: lines with their own terminators, Markdown code fences.
import { describe, expect, it } from 'vitest';
import { joinLines, scanFences, splitLines } from '../../src/edit/text.ts';

describe('splitLines / joinLines', () => {
  it.each(['', 'a', 'a\n', 'a\r\n', 'a\n\n', 'a\r\nb\nc', '\n\n', 'x\r'])('round-trips %j', (text) => {
    expect(joinLines(splitLines(text))).toBe(text);
  });

  it('keeps each terminator with its line', () => {
    expect(splitLines('a\r\nb\nc')).toEqual([
      { text: 'a', eol: '\r\n' },
      { text: 'b', eol: '\n' },
      { text: 'c', eol: '' },
    ]);
  });
});

describe('scanFences', () => {
  const inFence = (text: string) => scanFences(splitLines(text)).inFence;
  it('marks fence lines and their contents', () => {
    expect(inFence('a\n```\nb\n```\nc\n')).toEqual([false, true, true, true, false]);
    expect(inFence('~~~\n```\n~~~\nx')).toEqual([true, true, true, false]);
  });
  it('inline triple backticks are not a fence', () => {
    expect(inFence('```js x``` y\nz\n')).toEqual([false, false]);
  });
  it('reports an unclosed fence', () => {
    expect(scanFences(splitLines('a\n```\nb\n')).unclosedFrom).toBe(1);
    expect(scanFences(splitLines('a\n```\nb\n```\n')).unclosedFrom).toBeNull();
  });
});
