// commandShape answers a line of plain words (no quote, expansion, operator, redirect, comment, group or second line)
// from its blank-separated words, without the tokenizer's walk; the shortcut must give exactly the key the tokenizer
// gives, output-only env prefixes, package-manager aliases, words that need quoting and odd blanks included.
import { describe, expect, it } from 'vitest';
import { commandShape, shapeByTokens } from '../../src/guard/core/command-key.ts';
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
const BLANKS = [' ', '  ', '\t', ' \t '];
// Characters the shell does not split on, which the tokenizer keeps inside a word.
const ODD = ['\u00a0', '\u3000', '\v', '\f', '\u2028', '\ufeff', '\ud800'];

function lines(count: number): string[] {
  let seed = 7;
  const r = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const out = ['', ' ', '\t\t', 'ls', '\v', ' \u00a0 '];
  for (let k = 0; k < count; k++) {
    let line = r(4) === 0 ? (BLANKS[r(BLANKS.length)] as string) : '';
    const n = r(7);
    for (let w = 0; w < n; w++) {
      let word = WORDS[r(WORDS.length)] as string;
      if (r(12) === 0) word += ODD[r(ODD.length)] as string;
      line += word + (w < n - 1 || r(3) === 0 ? (BLANKS[r(BLANKS.length)] as string) : '');
    }
    out.push(line);
  }
  return out;
}

const PLAIN = /^[^\n\r\\'"$`#;&|<>(){}]*$/;

describe('commandShape on plain lines', () => {
  it('gives the key the tokenizer gives on 30,000 random plain lines', () => {
    let plain = 0;
    for (const line of lines(30_000)) {
      if (PLAIN.test(line)) plain++;
      expect(commandShape(line), JSON.stringify(line)).toEqual(shapeByTokens(line));
    }
    expect(plain).toBeGreaterThan(29_000);
  });

  it('gives the key the tokenizer gives on every recorded text', () => {
    const texts = recordedTexts();
    expect(texts.length).toBeGreaterThan(1000);
    let plain = 0;
    for (const text of texts) {
      if (PLAIN.test(text)) plain++;
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
