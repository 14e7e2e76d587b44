// commandShape answers a line of plain words (no quote, expansion, operator, redirect, comment, group or second line)
// from its blank-separated words, without the tokenizer's walk; the shortcut must give exactly the key the tokenizer
// gives, output-only env prefixes, package-manager aliases, words that need quoting and odd blanks included.
import { describe, expect, it } from 'vitest';
import { commandShape, shapeByTokens } from '../../src/guard/core/command-key.ts';
import { PLAIN_LINE } from '../../src/guard/core/shell/plain-line.ts';
import { ODD_BLANKS, plainLines } from '../helpers/plain-lines.ts';
import { recordedTexts } from '../helpers/recorded-texts.ts';

const WORDS = [
  'git',
  'status',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  't',
  'tst',
  'test',
  'start',
  'run',
  'run-script',
  'rum',
  'urn',
  'CI=1',
  'FORCE_COLOR=0',
  'NO_COLOR=',
  'PAGER=cat',
  'A=1',
  'B=x=y',
  '1A=2',
  'sed',
  '-n',
  '1,80p',
  'src/a.ts',
  'tail',
  '-20',
  'head',
  'grep',
  '-v',
  'cat',
  'echo',
  'true',
  ':',
  'exit',
  '0',
  '*.ts',
  '?x',
  '[ab]',
  '~',
  '~/x',
  '!',
  '%1',
  '^a',
  '@b',
  'a+b',
  'a,b',
  'x=',
  'é',
  '日本',
  '😀',
  '2',
  '-',
  '--',
];
// Odd blanks, and half of a surrogate pair: the shortcut must keep it inside its word, as the tokenizer does.
const lines = (count: number) =>
  plainLines(count, {
    words: WORDS,
    seed: 7,
    maxWords: 7,
    odd: [...ODD_BLANKS, '\ud800'],
    first: ['', ' ', '\t\t', 'ls', '\v', ' \u00a0 '],
  });

describe('commandShape on plain lines', () => {
  it('gives the key the tokenizer gives on 30,000 random plain lines', () => {
    let plain = 0;
    for (const line of lines(30_000)) {
      if (PLAIN_LINE.test(line)) plain++;
      expect(commandShape(line), JSON.stringify(line)).toEqual(shapeByTokens(line));
    }
    expect(plain).toBeGreaterThan(29_000);
  });

  it('gives the key the tokenizer gives on every recorded text', () => {
    const texts = recordedTexts();
    expect(texts.length).toBeGreaterThan(1000);
    let plain = 0;
    for (const text of texts) {
      if (PLAIN_LINE.test(text)) plain++;
      expect(commandShape(text), JSON.stringify(text)).toEqual(shapeByTokens(text));
    }
    expect(plain).toBeGreaterThan(100);
  });

  it('still drops output-only prefixes and spells aliases as run on the shortcut', () => {
    expect(commandShape('CI=1 FORCE_COLOR=0 npm t').key).toBe('npm run test');
    expect(commandShape('npm  run-script\tbuild').key).toBe('npm run build');
    expect(commandShape('ls *.ts').key).toBe("ls '*.ts'");
  });
});
