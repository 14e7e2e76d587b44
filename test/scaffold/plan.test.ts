// The pure plan directly (not through the built CLI): files in, FileChange[] and the ownership manifest out.
import { describe, expect, it } from 'vitest';
import { withOwnedHeader } from '../../src/edit/owned-file.ts';
import type { Assets } from '../../src/scaffold/intents/types.ts';
import { buildPlan, type FileChange, PlanError, type PlanInput, planPaths } from '../../src/scaffold/plan.ts';
import { MANIFEST_PATH } from '../../src/tools/markers.ts';

const VERSION = '0.1.0';
const assets: Assets = {
  guard: withOwnedHeader('#!/usr/bin/env node\nconsole.log("guard");\n', '//', VERSION),
  'opencode-plugin': withOwnedHeader('export const LoopGuard = async () => ({});\n', '//', VERSION),
  'cline-loader': withOwnedHeader('module.exports = {};\n', '//', VERSION),
  'kilo-plugin': withOwnedHeader('export const LoopGuard = async () => ({}); // kilo\n', '//', VERSION),
  'cursor-env': withOwnedHeader('export GIT_PAGER=cat\n', '#', VERSION),
  'agents-gitignore': withOwnedHeader('/handoff.md\n', '#', VERSION),
  agentsBlock: 'Stop when loop-guard refuses a command.',
  gitattributesBlock: '/.agents/hooks/loop-guard.cjs linguist-generated',
  profileBlock: 'export GIT_PAGER=cat',
  profileFish: withOwnedHeader('set -gx GIT_PAGER cat\n', '#', VERSION),
};

function input(over: Omit<Partial<PlanInput>, 'files'> & { files?: Record<string, string | null> }): PlanInput {
  const { files = {}, ...rest } = over;
  return {
    mode: 'apply',
    tools: ['claude'],
    files: new Map(Object.entries(files)),
    manifest: null,
    version: VERSION,
    force: false,
    assets,
    ...rest,
  };
}

const byPath = (changes: FileChange[]) => Object.fromEntries(changes.map((c) => [c.path, c]));
/** The repository after applying: every path the plan read, with its text after the change. */
function applied(before: Record<string, string | null>, changes: FileChange[]): Record<string, string | null> {
  const out = { ...before };
  for (const c of changes) out[c.path] = c.after;
  return out;
}

describe('buildPlan', () => {
  it('a blank repository with Claude Code: creates the guard, settings, CLAUDE.md import, AGENTS.md block and manifest', () => {
    const plan = buildPlan(input({}));
    const c = byPath(plan.changes);
    expect(Object.keys(c).sort()).toEqual([
      '.agents/.gitignore',
      '.agents/hooks/loop-guard.cjs',
      '.agents/loop-guard.json',
      '.claude/settings.json',
      '.gitattributes',
      'AGENTS.md',
      'CLAUDE.md',
    ]);
    expect(plan.changes.every((x) => x.action === 'create')).toBe(true);
    expect(c['.agents/hooks/loop-guard.cjs']).toMatchObject({ mode: 0o644, generated: true });
    // The stop rule as its own block (an import would put all of AGENTS.md in every session).
    expect(c['CLAUDE.md']!.after).toMatch(/^<!-- loop-guard:begin [^\n]*-->\n[\s\S]*<!-- loop-guard:end -->\n$/);
    expect(c['CLAUDE.md']!.after).not.toContain('@AGENTS.md');
    expect(c['CLAUDE.md']!.reason).toMatch(/adds ~\d+ tokens to every Claude Code session/);
    const settings = JSON.parse(c['.claude/settings.json']!.after!);
    expect(Object.keys(settings.hooks)).toEqual([
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'UserPromptSubmit',
      'SessionStart',
      'SubagentStop',
    ]);
    expect(settings.env.GIT_PAGER).toBe('cat');
    expect(plan.manifest.files['.claude/settings.json']).toMatchObject({
      created: true,
      env: ['GIT_PAGER', 'PAGER', 'GIT_TERMINAL_PROMPT', 'GIT_EDITOR'],
    });
    expect(plan.manifest.files['CLAUDE.md']).toMatchObject({ created: true });
  });

  it('rerun on its own result changes nothing, and --remove gives back the blank repository', () => {
    const first = buildPlan(input({}));
    const files = applied({}, first.changes);
    const second = buildPlan(input({ files, manifest: first.manifest }));
    expect(second.changes.map((c) => [c.path, c.action])).toEqual(first.changes.map((c) => [c.path, 'noop']));
    const removed = buildPlan(input({ mode: 'remove', files, manifest: first.manifest }));
    expect(removed.changes.filter((c) => c.action !== 'remove')).toEqual([]);
    expect(Object.values(applied(files, removed.changes)).every((t) => t === null)).toBe(true);
  });

  it("keeps a user's own pager, says so, warns that it waits for a person, and does not record the key as ours", () => {
    const before = '{\n  // mine\n  "env": { "GIT_PAGER": "less" }\n}\n';
    const plan = buildPlan(input({ files: { '.claude/settings.json': before } }));
    const settings = byPath(plan.changes)['.claude/settings.json']!;
    expect(settings.action).toBe('update');
    expect(settings.after).toContain('"GIT_PAGER": "less"');
    expect(settings.after).toContain('// mine');
    expect(settings.notes.join('\n')).toMatch(/Kept your env\.GIT_PAGER="less"/);
    expect(settings.notes.join('\n')).toMatch(/Agents may hang on GIT_PAGER="less"/);
    expect(plan.manifest.files['.claude/settings.json']!.env).not.toContain('GIT_PAGER');
    expect(plan.manifest.files['.claude/settings.json']!.created).toBeUndefined();
  });

  it('a file of the same name that is not ours is a conflict, with the manual fix', () => {
    const plan = buildPlan(input({ files: { '.agents/hooks/loop-guard.cjs': 'echo mine\n' } }));
    const guard = byPath(plan.changes)['.agents/hooks/loop-guard.cjs']!;
    expect(guard.action).toBe('conflict');
    expect(guard.after).toBe('echo mine\n');
    expect(guard.fix).toMatch(/--force/);
  });

  it('a settings file that does not parse is a PlanError naming the file', () => {
    expect(() => buildPlan(input({ files: { '.claude/settings.json': '{ "env": ' } }))).toThrow(PlanError);
    try {
      buildPlan(input({ files: { '.claude/settings.json': '{ "env": ' } }));
    } catch (err) {
      expect((err as PlanError).path).toBe('.claude/settings.json');
    }
  });

  it('Codex: the TOML env table is created and recorded, so --remove drops it again', () => {
    const first = buildPlan(input({ tools: ['codex'] }));
    expect(first.manifest.files['.codex/config.toml']).toMatchObject({ created: true, tableCreated: true });
    const files = applied({}, first.changes);
    expect(files['.codex/config.toml']).toContain('[shell_environment_policy.set]');
    const removed = buildPlan(input({ mode: 'remove', tools: ['codex'], files, manifest: first.manifest }));
    expect(byPath(removed.changes)['.codex/config.toml']!.action).toBe('remove');
  });

  it('planPaths names every file of the chosen tools, of an earlier run, and the manifest', () => {
    const first = buildPlan(input({ tools: ['cursor'] }));
    const paths = planPaths(['opencode'], first.manifest);
    expect(paths).toContain('.opencode/plugins/loop-guard.js');
    expect(paths).toContain('.cursor/hooks.json');
    expect(paths).toContain(MANIFEST_PATH);
  });
});
