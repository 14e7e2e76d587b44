// Each tool with a config of its own, through the built CLI: detected by its evidence, installed into the user's config
// (comments and keys kept), rerun is a no-op, --check is clean and catches a removed entry, --remove gives the
// user's files back byte for byte.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'comment-json';
import { GUARD_PATH } from '../../src/tools/index.ts';
import { fixtureRepo, readTree, requireCli, runCliAsync } from '../helpers/cli.ts';

beforeAll(requireCli);

interface Case {
  tool: string;
  /** a user file that detects the tool, and that the CLI must merge into */
  config: string;
  userText: string;
  /** events our entries must sit on */
  events: string[];
  /** other files the tool needs, and a part of what they must hold (the stop rule's block) */
  extra: Record<string, string>;
}

const CASES: Case[] = [
  {
    tool: 'gemini',
    config: '.gemini/settings.json',
    userText:
      '{\n  // my model\n  "model": { "name": "gemini-2.5-pro" },\n  "hooks": { "SessionStart": [ { "hooks": [ { "type": "command", "command": "echo hi" } ] } ] }\n}\n',
    events: ['BeforeTool', 'AfterTool', 'BeforeAgent'],
    extra: { 'GEMINI.md': '<!-- loop-guard:begin ' },
  },
  {
    tool: 'copilot',
    config: '.github/hooks/mine.json',
    userText: '{ "version": 1, "hooks": { "sessionStart": [ { "type": "command", "bash": "echo hi" } ] } }\n',
    events: ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'UserPromptSubmit'],
    extra: {},
  },
  {
    tool: 'qwen',
    config: '.qwen/settings.json',
    userText: '{\n  "general": { "vimMode": true } // keep\n}\n',
    events: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit'],
    extra: {},
  },
];
const OURS: Record<string, string> = {
  gemini: '.gemini/settings.json',
  copilot: '.github/hooks/loop-guard.json',
  qwen: '.qwen/settings.json',
};

describe.concurrent.each(CASES)('$tool', ({ tool, config, userText, events, extra }) => {
  it('detected, installed around the user config, rerun no-op, --check clean then catches a lost entry, --remove restores', async () => {
    const dir = fixtureRepo(null);
    try {
      mkdirSync(join(dir, dirname(config)), { recursive: true });
      writeFileSync(join(dir, config), userText);
      const before = readTree(dir);

      const apply = await runCliAsync(['--yes'], { cwd: dir });
      expect(apply.status, apply.stdout + apply.stderr).toBe(0);
      const ours = readFileSync(join(dir, OURS[tool]!), 'utf8');
      const doc = parse(ours) as unknown as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
      for (const e of events) expect(JSON.stringify(doc.hooks[e]), `${e} runs the guard`).toContain(`${GUARD_PATH}\`;`);
      if (OURS[tool] === config) {
        expect(ours, 'the user comment is kept').toMatch(/\/\/ (my model|keep)/);
      } else {
        expect(readFileSync(join(dir, config), 'utf8'), "the user's own hooks file is untouched").toBe(userText);
      }
      for (const [f, text] of Object.entries(extra)) expect(readFileSync(join(dir, f), 'utf8')).toContain(text);

      const installed = readTree(dir);
      const rerun = await runCliAsync(['--yes'], { cwd: dir });
      expect(rerun.status, rerun.stdout + rerun.stderr).toBe(0);
      expect(readTree(dir)).toEqual(installed);
      const check = await runCliAsync(['--check'], { cwd: dir });
      expect(check.status, check.stdout + check.stderr).toBe(0);

      // A lost hook entry is drift.
      const tampered = ours.replace(`"${events[0]}"`, '"Unrelated"');
      writeFileSync(join(dir, OURS[tool]!), tampered);
      const drift = await runCliAsync(['--check'], { cwd: dir });
      expect(drift.status, drift.stdout + drift.stderr).toBe(1);
      writeFileSync(join(dir, OURS[tool]!), ours);

      const removed = await runCliAsync(['--remove', '--yes'], { cwd: dir });
      expect(removed.status, removed.stdout + removed.stderr).toBe(0);
      expect(readTree(dir)).toEqual(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
