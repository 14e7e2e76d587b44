// splitCommands answers a line of plain words (no quote, expansion, operator, comment, group or second line) without
// the parser's walk; the shortcut must find exactly the commands the parser finds, wrappers, assignments, `sh -c`
// scripts and odd blanks included.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommands, splitCommands } from '../../src/guard/core/shell/split.ts';
import { plainLines } from '../helpers/plain-lines.ts';

const WORDS = [
  'git',
  'status',
  'sed',
  '-n',
  '1,80p',
  'src/a.ts',
  'sudo',
  'env',
  'A=1',
  'B=x=y',
  'bash',
  'sh',
  'zsh',
  '-c',
  '-lc',
  'timeout',
  '5',
  'nohup',
  'setsid',
  'disown',
  'npm',
  'run',
  'dev',
  'exec',
  'command',
  'builtin',
  'xargs',
  'time',
  'nice',
  '-n',
  '10',
  'doas',
  '--',
  'then',
  'do',
  'if',
  'while',
  '!',
  'tail',
  '-f',
  'log.txt',
  'vim',
  'less',
  'python',
  'node',
  'read',
  '*.ts',
  '?x',
  '[ab]',
  '~',
  '~/x',
  '%1',
  '^a',
  '@b',
  'a+b',
  'fg',
  'jobs',
  'wait',
  'cat',
  'é',
  '日本',
];
const lines = (count: number) =>
  plainLines(count, { words: WORDS, seed: 42, maxWords: 9, first: ['', ' ', '\t\t', 'ls'] });

/** Every "command" string in the recorded payloads and judgment sequences. */
function recordedCommands(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(json|jsonl)$/.test(name))
        for (const m of readFileSync(p, 'utf8').matchAll(/"command":("(?:[^"\\]|\\.)*")/g)) {
          try {
            out.push(JSON.parse(m[1] as string) as string);
          } catch {
            // not a JSON string after all
          }
        }
    }
  };
  for (const d of ['payloads', 'judgment']) walk(join(import.meta.dirname, '..', 'fixtures', d));
  return out;
}

describe('splitCommands on plain lines', () => {
  it('finds what the parser finds on 20,000 random plain lines', () => {
    let plain = 0;
    for (const line of lines(20_000)) {
      if (!/[\n\r\\'"$`#;&|<>(){}]/.test(line)) plain++;
      expect(splitCommands(line), JSON.stringify(line)).toEqual(parseCommands(line));
    }
    expect(plain).toBeGreaterThan(19_000);
  });

  it('finds what the parser finds on every recorded command', () => {
    const commands = recordedCommands();
    expect(commands.length).toBeGreaterThan(1000);
    for (const line of commands) expect(splitCommands(line), JSON.stringify(line)).toEqual(parseCommands(line));
  });

  it('still sees through wrappers and shell scripts on the shortcut', () => {
    const [outer, inner] = splitCommands('sudo timeout 5 bash -c vim');
    expect(outer?.wrappers).toEqual(['sudo', 'timeout']);
    expect(inner).toMatchObject({ argv: ['vim'], nested: true });
  });
});
