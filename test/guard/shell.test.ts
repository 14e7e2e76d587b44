import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isDetached, splitCommands, type SimpleCommand } from '../../src/guard/core/shell/split.ts';

const argvs = (line: string): string[][] => splitCommands(line).map((c) => c.argv);
const only = (line: string): SimpleCommand => {
  const cmds = splitCommands(line);
  expect(cmds).toHaveLength(1);
  return cmds[0]!;
};

describe('splitCommands: lists and pipelines', () => {
  it.each<[string, string[][]]>([
    ['ls', [['ls']]],
    ['ls -la /tmp', [['ls', '-la', '/tmp']]],
    ['a | b', [['a'], ['b']]],
    ['a || b && c; d & e', [['a'], ['b'], ['c'], ['d'], ['e']]],
    ['a\nb\n\nc', [['a'], ['b'], ['c']]],
    ['a|&b', [['a'], ['b']]],
    ['a;;b', [['a'], ['b']]],
    ['a&&b||c', [['a'], ['b'], ['c']]],
    ['(cd sub; make) && echo ok', [['cd', 'sub'], ['make'], ['echo', 'ok']]],
    ['{ a; b; } | c', [['a'], ['b'], ['c']]],
    ['echo "a | b; c" \'d && e\'', [['echo', 'a | b; c', 'd && e']]],
    ['echo a\\;b', [['echo', 'a;b']]],
    ['echo a \\\n  b', [['echo', 'a', 'b']]],
    ['echo hi # vim in a comment\nls', [['echo', 'hi'], ['ls']]],
    ['echo a#b', [['echo', 'a#b']]],
    ["echo $'it\\'s'", [['echo', "it's"]]],
    ['arr=(a b c); echo ${arr[@]}', [[], ['echo', '${arr[@]}']]],
    ['(( i++ )); echo $(( 1 + 2 ))', [['echo', '$(( 1 + 2 ))']]],
    ['echo {a,b}.txt {}', [['echo', '{a,b}.txt', '{}']]],
    ['for f in *.md; do vim "$f"; done', [['for', 'f', 'in', '*.md'], ['vim', '$f'], ['done']]],
    ['if true; then less x; fi', [['true'], ['less', 'x'], ['fi']]],
    ['! grep -q x f', [['grep', '-q', 'x', 'f']]],
  ])('%j', (line, expected) => {
    expect(argvs(line)).toEqual(expected);
  });

  it('marks the stdout of pipeline members and the stdin of the next', () => {
    const [a, b, c] = splitCommands('git log | grep x | less');
    expect([a!.pipedOut, b!.pipedOut, c!.pipedOut]).toEqual([true, true, false]);
    expect([a!.stdinRedirected, b!.stdinRedirected, c!.stdinRedirected]).toEqual([false, true, true]);
  });
});

describe('splitCommands: substitutions and heredocs', () => {
  it('returns commands inside $(…) and `…` as extra, nested commands', () => {
    const cmds = splitCommands('echo $(git rev-parse HEAD) `date`');
    expect(cmds.map((c) => [c.argv, c.nested])).toEqual([
      [['git', 'rev-parse', 'HEAD'], true],
      [['date'], true],
      [['echo', '$(git rev-parse HEAD)', '`date`'], false],
    ]);
  });

  it('keeps a $(…) inside double quotes in one word', () => {
    const cmds = splitCommands('git commit -m "msg: $(echo a; echo b)"');
    expect(cmds.at(-1)!.argv).toEqual(['git', 'commit', '-m', 'msg: $(echo a; echo b)']);
  });

  it('handles nested substitutions and parentheses inside them', () => {
    expect(argvs('echo $(basename $(pwd)) $( (cd x && ls) )')).toEqual([
      ['pwd'],
      ['basename', '$(pwd)'],
      ['cd', 'x'],
      ['ls'],
      ['echo', '$(basename $(pwd))', '$( (cd x && ls) )'],
    ]);
  });

  it('parses process substitutions', () => {
    expect(argvs('diff <(sort a) <(sort b)')).toEqual([
      ['sort', 'a'],
      ['sort', 'b'],
      ['diff', '<(sort a)', '<(sort b)'],
    ]);
  });

  it('skips heredoc bodies', () => {
    expect(argvs("cat <<'EOF' > notes.md\nvim\nless file\ngit commit\nEOF\necho done")).toEqual([
      ['cat'],
      ['echo', 'done'],
    ]);
    expect(argvs('cat <<-EOF\n\tvim\n\tEOF\nls')).toEqual([['cat'], ['ls']]);
    expect(argvs('python3 <<EOF\nimport os\nEOF')).toEqual([['python3']]);
    expect(only('python3 <<EOF\nx\nEOF').stdinRedirected).toBe(true);
  });

  it('skips a heredoc inside a commit-message substitution', () => {
    const line = 'git commit -m "$(cat <<\'EOF\'\nfix: vim (and less)\n\nbody; more\nEOF\n)"';
    const cmds = splitCommands(line);
    expect(cmds.map((c) => c.argv[0])).toEqual(['cat', 'git']);
    expect(cmds[1]!.argv[3]).toContain('fix: vim');
  });

  it('returns the commands inside sh -c strings, inheriting wrappers', () => {
    const cmds = splitCommands('timeout 5 bash -lc "npm run dev && echo \\"ok\\""');
    expect(cmds.map((c) => c.argv)).toEqual([
      ['bash', '-lc', 'npm run dev && echo "ok"'],
      ['npm', 'run', 'dev'],
      ['echo', 'ok'],
    ]);
    expect(cmds[1]!.wrappers).toEqual(['timeout']);
    expect(cmds[1]!.nested).toBe(true);
  });
});

describe('splitCommands: wrappers and assignments', () => {
  it.each<[string, string[], string[]]>([
    ['sudo vim /etc/hosts', ['vim', '/etc/hosts'], ['sudo']],
    ['sudo -u bob -E vim x', ['vim', 'x'], ['sudo']],
    ['env -i PATH=/bin FOO=1 ls', ['ls'], ['env']],
    ['command ls', ['ls'], ['command']],
    ['command -v vim', ['command', '-v', 'vim'], []],
    ['exec node server.js', ['node', 'server.js'], ['exec']],
    ['time -p make', ['make'], ['time']],
    ['nice -n 10 make', ['make'], ['nice']],
    ['nice -5 make', ['make'], ['nice']],
    ['nohup npm start', ['npm', 'start'], ['nohup']],
    ['setsid -f npm start', ['npm', 'start'], ['setsid']],
    ['timeout 10 tail -f log', ['tail', '-f', 'log'], ['timeout']],
    ['timeout -s KILL --preserve-status 5m make', ['make'], ['timeout']],
    ['stdbuf -oL -e 0 tail -f x', ['tail', '-f', 'x'], ['stdbuf']],
    ['/usr/bin/sudo /usr/bin/nohup x', ['x'], ['sudo', 'nohup']],
  ])('%j', (line, argv, wrappers) => {
    const cmd = only(line);
    expect(cmd.argv).toEqual(argv);
    expect(cmd.wrappers).toEqual(wrappers);
  });

  it('collects leading assignments, including those given to env', () => {
    const cmd = only('GIT_EDITOR=true FOO="a b" env BAR=2 git commit');
    expect(cmd.argv).toEqual(['git', 'commit']);
    expect([...cmd.env]).toEqual([
      ['GIT_EDITOR', 'true'],
      ['FOO', 'a b'],
      ['BAR', '2'],
    ]);
  });

  it('keeps assignments after the command name as arguments', () => {
    expect(only('make CC=clang all').argv).toEqual(['make', 'CC=clang', 'all']);
  });
});

describe('splitCommands: background, redirections, detachment', () => {
  it('backgrounds the whole and-or list before &', () => {
    const cmds = splitCommands('cd web && npm run dev & sleep 1; curl localhost');
    expect(cmds.map((c) => [c.argv[0], c.background])).toEqual([
      ['cd', true],
      ['npm', true],
      ['sleep', false],
      ['curl', false],
    ]);
  });

  it('backgrounds groups and subshells', () => {
    expect(splitCommands('{ npm run dev; } > log 2>&1 &').map((c) => [c.background, c.stdoutToFile])).toEqual([
      [true, true],
    ]);
    expect(splitCommands('(npm run dev &)').map((c) => c.background)).toEqual([true]);
    expect(splitCommands('(a; b) & c').map((c) => c.background)).toEqual([true, true, false]);
  });

  it('does not treat &&, &> or >& as backgrounding', () => {
    for (const line of ['a && b', 'a &> log', 'a >& log', 'a 2>&1', 'a &>> log']) {
      expect(
        splitCommands(line).some((c) => c.background),
        line,
      ).toBe(false);
    }
  });

  it('tells stdout redirections from descriptor duplications', () => {
    expect(only('a > out').stdoutToFile).toBe(true);
    expect(only('a >> out').stdoutToFile).toBe(true);
    expect(only('a &> out').stdoutToFile).toBe(true);
    expect(only('a 1> out').stdoutToFile).toBe(true);
    expect(only('a >/dev/null 2>&1').stdoutToFile).toBe(true);
    expect(only('a 2> err').stdoutToFile).toBe(false);
    expect(only('a 2>&1').stdoutToFile).toBe(false);
    expect(only('a >&2').stdoutToFile).toBe(false);
    expect(only('a < in').stdinRedirected).toBe(true);
    expect(only('a <<< "text"').stdinRedirected).toBe(true);
    expect(only('a 2>err').argv).toEqual(['a']);
  });

  it('marks commands disowned by a later disown', () => {
    const cmds = splitCommands('npm run dev & disown');
    expect(cmds[0]!.disowned).toBe(true);
    expect(isDetached(cmds[0]!)).toBe(true);
  });

  it.each<[string, boolean]>([
    ['npm run dev', false],
    ['npm run dev > dev.log 2>&1', false],
    ['npm run dev &', true],
    ['nohup npm run dev', true],
    ['setsid npm run dev', true],
    ['timeout 5 npm run dev', true],
    ['sudo timeout 5 npm run dev', true],
  ])('isDetached(%j) = %s', (line, detached) => {
    expect(isDetached(only(line))).toBe(detached);
  });
});

describe('splitCommands: robustness', () => {
  it('returns a best effort on unterminated input', () => {
    expect(argvs("echo 'unterminated")).toEqual([['echo', 'unterminated']]);
    expect(argvs('echo "open $(ls')).toEqual([['ls'], ['echo', 'open $(ls']]);
    expect(argvs('cat <<EOF\nno end')).toEqual([['cat']]);
    expect(argvs('a )) b')).toEqual([['a'], ['b']]);
    expect(argvs('echo `ls')).toEqual([['ls'], ['echo', '`ls']]);
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'ab $()`\'"\\|&;<>{}\n#=-x\t'.split('')), maxLength: 200 }),
        (s) => {
          const out = splitCommands(s);
          expect(Array.isArray(out)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('stays fast and within the stack on deep nesting and long input', () => {
    const started = performance.now();
    splitCommands('$('.repeat(20_000) + 'ls' + ')'.repeat(20_000));
    splitCommands('`'.repeat(20_000));
    splitCommands('('.repeat(20_000) + 'ls' + ')'.repeat(20_000));
    splitCommands('{ '.repeat(20_000) + 'ls' + '; }'.repeat(20_000));
    splitCommands('a & disown; '.repeat(5_000));
    splitCommands("cat <<'EOF' > big.txt\n" + 'line of text | less; vim\n'.repeat(20_000) + 'EOF\n');
    splitCommands('"'.repeat(100_001));
    splitCommands('x'.repeat(500_000));
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
