// Parse errors point: file, line and column, the offending line with a caret, a few lines at most — never the file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { excerpt, jsonReason } from '../../src/edit/excerpt.ts';
import { parseUserFile } from '../../src/edit/jsonc.ts';
import { FileFormatError } from '../../src/edit/outcome.ts';
import { parseOrThrow } from '../../src/edit/toml-scan.ts';
import { fixtureRepo, readTree, requireCli, runCli } from '../helpers/cli.ts';

beforeAll(requireCli);

const thrown = (f: () => unknown): FileFormatError => {
  try {
    f();
  } catch (err) {
    if (err instanceof FileFormatError) return err;
    throw err;
  }
  throw new Error('did not throw');
};

describe('excerpt', () => {
  it('the line before, the line, and a caret under the column', () => {
    expect(excerpt('a\nbb\ncc c\n', 3, 4)).toBe('  2 | bb\n> 3 | cc c\n    |    ^');
    expect(excerpt('x', 1, 1)).toBe('> 1 | x\n    | ^');
  });

  it('a long (minified) line is cut around the column, the caret still under it', () => {
    const line = `${'a'.repeat(500)}!${'b'.repeat(500)}`;
    const text = excerpt(line, 1, 501);
    const [code, caret] = text.split('\n') as [string, string];
    expect(code.length).toBeLessThan(120);
    expect(code[caret.indexOf('^')]).toBe('!');
  });

  it("drops the copy of the whole input Node's JSON.parse puts in its message", () => {
    expect(jsonReason('Unexpected token \'"\', "{\n  big\n}" is not valid JSON')).toBe("unexpected token '\"'");
    expect(jsonReason('Unexpected token } in JSON at position 9')).toBe('unexpected token }');
  });
});

describe('parse errors', () => {
  it('JSON: line and column, a hint for the missing comma, the line with a caret, not the file', () => {
    const body = `{\n  "env": { "A": "1" }\n  "hooks": {}\n${'  \n'.repeat(200)}}\n`;
    const err = thrown(() => parseUserFile(body));
    expect(err.message.split('\n')[0]).toBe(
      "line 3, column 3: not valid JSON (comments and trailing commas allowed): unexpected token '\"' (a comma missing before it?)",
    );
    expect(err.message).toContain('> 3 |   "hooks": {}\n    |   ^');
    expect(err.message.split('\n').length).toBeLessThanOrEqual(4);
    expect(err.fix).toBe('Fix the JSON at line 3, column 3, then run again.');
  });

  it('TOML: the same shape', () => {
    const err = thrown(() => parseOrThrow('model = "x"\n[a]\nb = = 1\n'));
    expect(err.message).toBe('line 3, column 5: invalid value\n  2 | [a]\n> 3 | b = = 1\n    |     ^');
  });
  it('TOML: a string left open says so, not "control characters are not allowed in strings"', () => {
    const err = thrown(() => parseOrThrow('[x]\na = "abc\nb = 1\n'));
    expect(err.message).toMatch(/^line 2, column 9: unterminated string: it needs its closing quote on this line\n/);
    expect(err.message).not.toContain('control characters');
    // A real control character inside a closed string keeps the parser's words.
    expect(thrown(() => parseOrThrow('a = "a\u0001b"\n')).message).toContain('control characters are not allowed');
  });
});

describe('through the CLI', () => {
  it('a broken settings.json: exit 2, file:line:column with a caret on stderr, nothing written', () => {
    const dir = fixtureRepo('malformed');
    const before = readTree(dir);
    const r = runCli(['--yes'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('create-loop-guard: .claude/settings.json: line 3, column 3: not valid JSON');
    expect(r.stderr).toContain('> 3 |   "hooks": {}\n    |   ^');
    expect(r.stderr).not.toContain('is not valid JSON');
    expect(readTree(dir)).toEqual(before);
  });

  it('JSONC that parses but our splicer cannot read: exit 2 (bad input), where it is, the entries to add in a few lines', () => {
    const dir = fixtureRepo('claude');
    const settings = join(dir, '.claude/settings.json');
    const text = readFileSync(settings, 'utf8').replace('"env": {', '"holes": [1,,],\n  "env": {');
    writeFileSync(settings, text);
    const before = readTree(dir);
    const r = runCli(['--yes'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/\.claude\/settings\.json: line \d+, column \d+: unexpected token; the file parses, but/);
    expect(r.stderr).toMatch(/> +\d+ \| +"holes": \[1,,\],\n +\| +\^/);
    expect(r.stderr).toContain('hooks.PreToolUse[] += {"matcher":"Bash|PowerShell"');
    expect(r.stderr.split('\n').length).toBeLessThan(20);
    expect(r.stderr).toContain('Nothing was written.');
    expect(readTree(dir)).toEqual(before);
  });
});
