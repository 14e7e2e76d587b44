// One command key for rewordings that cannot change what runs; everything that can change what runs keeps its own key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandShape } from '../../src/guard/core/command-key.ts';
import { onPost, type SessionState } from '../../src/guard/core/detector.ts';
import { commandKey, resultKey } from '../../src/guard/core/fingerprint.ts';
import type { GuardSettings } from '../../src/guard/core/types.ts';

const settings: GuardSettings = { enabled: true, warn: 3, block: 4, hangGuard: true };

describe('rewordings share one key', () => {
  it.each([
    ['2>&1', 'npm test', 'npm test 2>&1'],
    ['| tail -N', 'npm test', 'npm test 2>&1 | tail -20'],
    ['| tail -n N', 'pytest -q', 'pytest -q 2>&1 | tail -n 40'],
    ['| head -N', 'npm test', 'npm test | head -100'],
    ['| head', 'npm test', 'npm test | head'],
    ['|& tail', 'npm test', 'npm test |& tail -5'],
    ['| grep -v', 'npm test', "npm test 2>&1 | grep -v 'npm warn'"],
    ['| cat', 'git log', 'git log | cat'],
    ['a trailing comment', 'npm test', 'npm test # again'],
    [
      'a comment line',
      'sleep 5 && curl -s localhost:3000/health',
      '# wait for the server\nsleep 5 && curl -s localhost:3000/health',
    ],
    ['|| true', 'npm test', 'npm test || true'],
    ['|| :', 'npm test', 'npm test || :'],
    ['|| echo', 'npm test', 'npm test || echo "tests failed"'],
    ['|| exit 0', 'make', 'make || exit 0'],
    ['CI=1', 'npm test', 'CI=1 npm test'],
    ['FORCE_COLOR=0 NO_COLOR=1', 'npm test', 'FORCE_COLOR=0 NO_COLOR=1 npm test'],
    ['PYTHONDONTWRITEBYTECODE=1', 'pytest', 'PYTHONDONTWRITEBYTECODE=1 pytest'],
    ['npm t', 'npm test', 'npm t'],
    ['npm tst', 'npm test', 'npm tst'],
    ['npm run test', 'npm test', 'npm run test'],
    ['npm run-script test', 'npm test', 'npm run-script test'],
    ['npm start', 'npm start', 'npm run start'],
    ['pnpm t', 'pnpm test', 'pnpm run test'],
    ['yarn test', 'yarn test', 'yarn run test'],
    ['bun start', 'bun start', 'bun run start'],
    ['quoting that cannot change the value', 'grep -i "ready" server.log', "grep -i 'ready' server.log"],
    ['> /dev/null', 'make build', 'make build > /dev/null 2>&1'],
    ['whitespace', 'npm   test', ' npm test\n'],
    ['all of them at once', 'npm test', '# rerun\nCI=1 npm t 2>&1 | tail -60 || true'],
    // PowerShell's views of the output, case-insensitive and abbreviated as PowerShell allows
    ['| Select-Object -Last N', 'npm test 2>&1 | tail -20', 'npm test 2>&1 | Select-Object -Last 20'],
    ['| select -first N', 'npm test | head -5', 'npm test | select -first 5'],
    ['| Select-Object -Last:N', 'npm test', 'npm test 2>&1 | Select-Object -Last:40'],
    ['| Select -l N', 'npm test', 'npm test | Select -l 10'],
    ['| Out-String', 'npm test', 'npm test 2>&1 | Out-String'],
    ['| Out-String -Width N', 'npm test', 'npm test | Out-String -Width 200'],
    ['| Out-Host', 'npm test', 'npm test | Out-Host'],
    ['| Select-String -NotMatch', 'npm test', 'npm test 2>&1 | Select-String -NotMatch "npm warn"'],
    ['| sls -NotMatch -Pattern', 'npm test', 'npm test | sls -NotMatch -Pattern warn'],
    ['*>&1', 'npm test', 'npm test *>&1'],
    ['2>$null', 'cargo build', 'cargo build 2>$null'],
    ['*> $null | Out-Null', 'make build', 'make build *> $null'],
    ['| Out-Null', 'make build > /dev/null', 'make build | Out-Null'],
    ['both trims', 'npm test 2>&1 | tail -20', 'npm test *>&1 | Select-Object -Last 20 | Out-String'],
  ])('%s', (_label, a, b) => {
    expect(commandShape(b).key).toBe(commandShape(a).key);
    expect(commandKey(b)).toBe(commandKey(a));
  });
});

describe('what can change what runs keeps its own key', () => {
  it.each([
    ['another argument', 'npm test -- a.test.ts', 'npm test -- b.test.ts'],
    ['an env var that changes behaviour', 'npm test', 'NODE_ENV=production npm test'],
    ['bun test is its own runner, not the test script', 'bun test', 'bun run test'],
    ['a positive grep selects what the result is', 'npm test', 'npm test | grep FAIL'],
    ['tail -f never returns', 'tail build.log', 'tail -f build.log'],
    ['tail of a file is the command, not a trim', 'npm test', 'npm test; tail -20 log.txt'],
    ['a redirection to a file writes it', 'npm test', 'npm test > out.log'],
    ['a fallback in the middle of a list changes what runs next', 'a && b', 'a || true && b'],
    ['a fallback that runs something', 'npm test', 'npm test || npm run rebuild'],
    ['an echo with an expansion', 'npm test', 'npm test || echo "$HOME"'],
    ['a quoted $ expands', 'echo "$HOME"', "echo '$HOME'"],
    ['the background', 'npm run dev', 'npm run dev &'],
    ['a different script', 'npm run test', 'npm run test:unit'],
    ['Select-Object of a property is what the result is', 'Get-Process', 'Get-Process | Select-Object Name'],
    ['Select-Object -Property', 'Get-Process', 'Get-Process | Select-Object -Property Name -First 5'],
    ['a positive Select-String selects what the result is', 'npm test', 'npm test | Select-String FAIL'],
    ['Out-Host -Paging is a pager', 'npm test', 'npm test | Out-Host -Paging'],
    ['Out-File writes a file', 'npm test', 'npm test | Out-File out.txt'],
    ['Windows paths keep their backslashes', 'type C:\\ab\\c.txt', 'type C:\\a\\bc.txt'],
  ])('%s', (_label, a, b) => {
    expect(commandKey(b)).not.toBe(commandKey(a));
  });

  it('leaves what it does not parse as written (substitutions, heredocs, subshells)', () => {
    for (const c of [
      'echo $(date) 2>&1',
      'cat <<EOF\nx\nEOF',
      '(cd a && npm test) 2>&1',
      'echo `date`',
      'case x in a) ;; esac',
    ]) {
      expect(commandShape(c).key).toBe(c.trim().replace(/\s+/g, ' '));
    }
  });

  it('never throws and never returns an empty key for a non-blank command (generated input)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        const { key } = commandShape(s);
        return s.trim() === '' || key.length > 0;
      }),
      { numRuns: 2000 },
    );
  });
});

describe('words as the tokenizer reads them', () => {
  it('a plain run stops at every character that is not plain', () => {
    expect(commandShape('echo a$HOME"b c"d\\e').key).toBe('echo a$HOME"b c"d\\e');
    expect(commandShape("echo ab'c d'ef").key).toBe("echo 'abc def'");
    expect(commandShape('echo abc{d}').key).toBe('echo abc{d}');
    expect(commandShape('echo C:\\Users\\me').key).toBe("echo 'C:\\Users\\me'");
  });
});

describe('property: noise injected into a command keeps its key, a changed argument does not', () => {
  const bases = [
    'npm test',
    'pytest -q tests/test_api.py',
    'cargo test --lib',
    'go test ./...',
    'make check',
    'node scripts/run.js --fast',
  ];
  const noise = [
    (c: string) => `${c} 2>&1`,
    (c: string) => `${c} | tail -${20 + 20}`,
    (c: string) => `${c} | head -n 50`,
    (c: string) => `${c} # retry`,
    (c: string) => `# try again\n${c}`,
    (c: string) => `${c} || true`,
    (c: string) => `${c} || echo "failed"`,
    (c: string) => `CI=1 ${c}`,
    (c: string) => `NO_COLOR=1 ${c}`,
  ];
  it('holds for any combination', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...bases),
        fc.array(fc.nat(noise.length - 1), { maxLength: 4 }),
        fc.string({ minLength: 1, maxLength: 8 }).filter((s) => /^[a-z0-9]+$/.test(s)),
        (base, picks, arg) => {
          // Apply in a fixed order that a person would write: env first, then redirections and pipes, then fallbacks and comments.
          const order = [7, 8, 4, 0, 1, 2, 5, 6, 3];
          let c = base;
          for (const k of order) if (picks.includes(k)) c = noise[k]!(c);
          const same = commandKey(c) === commandKey(base);
          const changed = commandKey(c.replace(base, `${base} ${arg}`)) !== commandKey(base);
          return same && changed;
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('the result side of a rewording', () => {
  it('an empty result is the same result whatever exit code the tool reports', () => {
    expect(resultKey('', 0)).toBe(resultKey('', 1));
    expect(resultKey('\n', undefined)).toBe(resultKey('', 1));
  });

  it('a trimming pipe or a fallback changes only the exit code, which is not part of the result', () => {
    expect(resultKey('FAIL src/a.test.ts', 0, 'npm test | tail -20')).toBe(
      resultKey('FAIL src/a.test.ts', 1, 'npm test'),
    );
  });

  it("a dropped `|| echo` fallback's own line is not part of the result", () => {
    const refused = "curl: (7) Failed to connect to localhost port 3000 after 0 ms: Couldn't connect to server\n";
    expect(resultKey(`${refused}not up yet (3)\n`, 0, 'curl -s localhost:3000/health || echo "not up yet (3)"')).toBe(
      resultKey(refused, 7, 'curl -s localhost:3000/health'),
    );
    // The same text printed by the command itself stays.
    expect(resultKey(`${refused}not up yet (3)\n`, 0, 'curl -s localhost:3000/health')).not.toBe(
      resultKey(refused, 7, 'curl -s localhost:3000/health'),
    );
  });

  it('messages quote the command as the agent wrote it', () => {
    let state: SessionState | undefined;
    const commands = ['npm test', 'CI=1 npm t 2>&1', 'npm test 2>&1 | tail -40'];
    let last = '';
    for (const [i, command] of commands.entries()) {
      const { next, decision } = onPost(
        state,
        { command, output: 'FAIL src/a.test.ts\nexpected 3 to be 4', exitCode: i === 2 ? 0 : 1 },
        settings,
      );
      state = next;
      if (decision.action === 'warn') last = decision.message;
    }
    expect(last).toContain('`npm test 2>&1 | tail -40` returned the same result 3 times');
  });
});
