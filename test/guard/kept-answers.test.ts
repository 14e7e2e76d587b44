// The answers the core keeps per command (commandKey, the hang rules without project files, the last lines split) are
// the answers it would compute: past the bound, with the context (tool, background) that changes a hang verdict, and
// after the callers that share them have read them.
import { describe, expect, it } from 'vitest';
import { TOOL_FACTS } from '../../src/guard/adapters/index.ts';
import { commandShape } from '../../src/guard/core/command-key.ts';
import { decide, type SessionStore } from '../../src/guard/core/decide.ts';
import { commandKey } from '../../src/guard/core/fingerprint.ts';
import { hash64 } from '../../src/guard/core/hash.ts';
import { checkHang } from '../../src/guard/core/hang/rules.ts';
import { parseCommands, splitCommands } from '../../src/guard/core/shell/split.ts';
import type { SessionState } from '../../src/guard/core/detector.ts';
import { commandWrites, writesState } from '../../src/guard/core/writes.ts';
import type { Decision, GuardSettings } from '../../src/guard/core/types.ts';

const settings: GuardSettings = { enabled: true, warn: 3, block: 4, hangGuard: true, handoff: 0 };

function store(): SessionStore {
  let state: SessionState | undefined;
  return {
    read: () => state,
    update(change: (current: unknown) => { next: SessionState; result: Decision }) {
      const { next, result } = change(state);
      state = next;
      return result;
    },
  };
}

describe('kept answers', () => {
  it('commandKey gives the computed key for 1,500 commands asked twice, past the bound of the kept answers', () => {
    const commands = Array.from({ length: 1500 }, (_, i) => `npm test -- --shard=${i} 2>&1 | tail -${i % 40}`);
    for (const round of [1, 2])
      for (const c of commands) expect(commandKey(c), `${c} (round ${round})`).toBe(hash64(commandShape(c).key));
  });

  it('writesState gives the computed answer for 1,500 commands asked twice, past the bound of the kept answers', () => {
    const commands = Array.from({ length: 1500 }, (_, i) =>
      i % 3 === 0 ? `git commit -m "step ${i}"` : i % 3 === 1 ? `git add src/${i}.ts && git status` : `git log -${i}`,
    );
    const answers = commands.map((c) => writesState(c));
    // Both kinds are among them: a kept answer could not pass for the other one.
    expect(answers.filter(Boolean).length).toBe(1000);
    for (const round of [1, 2])
      for (const [i, c] of commands.entries()) {
        expect(writesState(c), `${c} (round ${round})`).toBe(commandWrites(c));
        expect(writesState(c)).toBe(answers[i]);
      }
  });

  it('the commands of a line split are shared, and stay as parsed after the hang rules and writesState read them', () => {
    const lines = [
      'sudo env A=1 timeout 5 bash -c "vim notes.md; less log" &',
      'find . -name "*.ts" -exec vim {} +',
      'EDITOR=nano git commit && export PAGER=less && git log',
      'xargs -a list.txt rm -f; tee -a out.log < in.txt',
      'cd web && CI=1 npm run dev -- --port 3000 | tee dev.log',
    ];
    for (const line of lines) {
      const first = splitCommands(line);
      expect(splitCommands(line)).toBe(first);
      for (const facts of [TOOL_FACTS.claude, TOOL_FACTS.codex]) {
        checkHang(line, {
          longRunsReturn: facts.longRunsReturn,
          backgroundOption: facts.backgroundOption,
          ...(facts.shellEnv ? { shellEnv: facts.shellEnv } : {}),
          background: false,
        });
        commandWrites(line);
      }
      expect(splitCommands(line), line).toEqual(parseCommands(line));
    }
    // Past the few kept, a line is split again, to the same commands.
    for (const k of [1, 2, 3, 4, 5]) splitCommands(`echo ${k}`);
    expect(splitCommands(lines[0] as string)).toEqual(parseCommands(lines[0] as string));
  });

  it("a hang verdict follows the facts' content, for fresh facts objects as the hook makes them per event", () => {
    const command = 'git commit';
    // Claude Code's shell sets GIT_EDITOR=true, so its commit cannot open an editor; without that it would.
    const withEditor = () => ({ ...TOOL_FACTS.claude });
    const without = () => ({ ...TOOL_FACTS.claude, shellEnv: undefined });
    const rules = [withEditor, without, without, withEditor, withEditor, without].map((facts) => {
      const d = decide({ kind: 'pre', command, background: false }, settings, facts(), store());
      return d.action === 'deny' ? d.rule : null;
    });
    expect(rules).toEqual([null, 'git-commit-editor', 'git-commit-editor', null, null, 'git-commit-editor']);
  });

  it('a hang verdict follows the tool and the background flag for one command, asked in any order', () => {
    const command = 'npm run dev';
    const cases = [
      { facts: TOOL_FACTS.claude, background: false },
      { facts: TOOL_FACTS.claude, background: true },
      { facts: TOOL_FACTS.codex, background: false },
      { facts: TOOL_FACTS.claude, background: false },
    ];
    const rules = cases.map(({ facts, background }) => {
      const d = decide({ kind: 'pre', command, background }, settings, facts, store());
      const direct = checkHang(command, {
        longRunsReturn: facts.longRunsReturn,
        backgroundOption: facts.backgroundOption,
        background,
      });
      expect(d.action === 'deny' ? d.rule : null).toBe(direct?.rule ?? null);
      return d.action === 'deny' ? d.rule : null;
    });
    // Claude in the foreground is refused (a dev server never exits); in the background, or in Codex, it runs.
    expect(rules).toEqual(['dev-server', null, null, 'dev-server']);
  });
});
