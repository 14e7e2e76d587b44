// A change made through the shell outside git, below the plain look's two levels: the files a shell edit names are
// stat'ed by the later tree looks, so the identical failing rerun after `sed -i` / a heredoc script is not a repeat.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { editTargets } from '../../src/guard/core/progress.ts';
import { runHook } from '../../src/guard/main.ts';
import { treeFingerprint } from '../../src/guard/tree.ts';
import { loadPayload } from '../helpers/paths.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const temp = (prefix: string): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
const HEREDOC =
  "python3 - <<'PY'\nfrom pathlib import Path\np = Path('src/lib/core/app.js')\np.write_text(p.read_text().replace('1', '2'))\nPY";

describe('editTargets: the files a shell edit names', () => {
  it.each([
    ["sed -i 's/a/b/' src/lib/core/app.js", ['src/lib/core/app.js']],
    ["sed -i.bak -e 's/a/b/' a.ts ./b.ts", ['a.ts', 'b.ts']],
    ["perl -pi -e 's/a/b/' lib/x.pm", ['lib/x.pm']],
    [HEREDOC, ['src/lib/core/app.js']],
    ["cat > src/gen/out.ts <<'EOF'\nexport const a = 1;\nEOF", ['src/gen/out.ts']],
    ['git checkout -- src/app.ts', ['src/app.ts']],
  ])('%s', (command, files) => {
    expect(editTargets(command)).toEqual(files);
  });
  it.each(['npm test', 'node src/app.js', 'cat src/app.js', 'sed -n 1,5p src/app.js', 'echo ran >> ran.txt'])(
    'edits nothing: %s',
    (command) => expect(editTargets(command)).toEqual([]),
  );
});

describe('the tree look outside git', () => {
  it('does not see a change three levels down by itself, and sees it when the file is watched', () => {
    const dir = temp('lg-plain-');
    mkdirSync(join(dir, 'src/lib/core'), { recursive: true });
    const file = join(dir, 'src/lib/core/app.js');
    writeFileSync(file, 'const v = 1;\n');
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    const before = [treeFingerprint(dir), treeFingerprint(dir, [], ['src/lib/core/app.js'])];
    writeFileSync(file, 'const v = 2;\n');
    utimesSync(file, 1_700_000_100, 1_700_000_100);
    expect(treeFingerprint(dir)).toBe(before[0]);
    expect(treeFingerprint(dir, [], ['src/lib/core/app.js'])).not.toBe(before[1]);
  });
});

describe('end to end (Claude Code hook), a folder outside git', () => {
  it('six identical failing runs, each after a shell edit of a deep file, are never refused', () => {
    const proj = temp('lg-noGit-');
    const env = { LOOP_GUARD_STATE_DIR: temp('lg-noGit-state-'), PATH: process.env.PATH ?? '' };
    mkdirSync(join(proj, 'src/lib/core'), { recursive: true });
    const file = join(proj, 'src/lib/core/app.js');
    writeFileSync(file, 'const v = 0;\n');
    let id = 0;
    const call = (command: string, error: string | null) => {
      const callId = `toolu_e${++id}`;
      const input = { command, description: 'run' };
      const pre = runHook(
        JSON.stringify({
          ...loadPayload('claude/PreToolUse-success.json'),
          cwd: proj,
          tool_input: input,
          tool_use_id: callId,
        }),
        'claude',
        env,
      );
      if (/"permissionDecision":"deny"/.test(pre)) return 'refused';
      const post =
        error === null
          ? {
              ...loadPayload('claude/PostToolUse-success.json'),
              tool_response: { stdout: '', stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
            }
          : { ...loadPayload('claude/PostToolUseFailure-failure.json'), error };
      return runHook(JSON.stringify({ ...post, cwd: proj, tool_input: input, tool_use_id: callId }), 'claude', env);
    };
    const fail = 'Exit code 1\nFAIL: expected 42, got 41';
    const answers: string[] = [call('sh test.sh', fail)];
    for (let k = 0; k < 5; k++) {
      // The model's shell edit: the file really changes, as sed or the heredoc script would change it.
      writeFileSync(file, `const v = ${k + 1};\n`);
      utimesSync(file, 1_700_000_000 + k * 10, 1_700_000_000 + k * 10);
      call(k % 2 ? HEREDOC : `sed -i 's/const v = ${k};/const v = ${k + 1};/' src/lib/core/app.js`, null);
      answers.push(call('sh test.sh', fail));
    }
    expect(answers.filter((a) => a === 'refused')).toEqual([]);
    expect(answers.join('\n')).not.toContain('same result');
  });
});
