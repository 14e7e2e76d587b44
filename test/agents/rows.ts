// The real-agent scenario table: one row of data per agent tool. scenarios.test.ts runs every scenario on every
// selected row; a new tool plugs in with a row here (and its runner in runners/<tool>.ts), not with a test
// file of its own. What a row cannot do is a `skip` entry with the reason, printed as a skipped test.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLINE_PLUGIN } from '../../src/tools/cline.ts';
import { KILO_PLUGIN } from '../../src/tools/kilo.ts';
import { GUARD_PATH } from '../../src/tools/markers.ts';
import { type AgentName, type AgentRun, openCodeWarmTemplate } from './runners/index.ts';
import type { ToolStep } from './mock-server.ts';

/** The scenarios of scenarios.test.ts, by id (the test name starts with it). */
export type ScenarioId =
  | 'loop'
  | 'progress'
  | 'new turn'
  | 'hang guard'
  | 'cycle'
  | 'edits'
  | 'green edits'
  | 'shell edits'
  | 'shell edits, no git'
  | 'fail-open'
  | 'stop rule'
  | 'unattended'
  | 'restart loop'
  | 'restart loop, edits'
  | 'restart loop, new prompts';

export interface AgentRow {
  agent: AgentName;
  /** The files the built CLI must write for `--tools <agent>`. */
  writes: string[];
  /**
   * Scenarios of this tool run at the same time, each with its own mock server, repo and HOME (most of a run is
   * start-up and waiting). False where the CLI alone keeps both cores busy.
   */
  concurrent: boolean;
  /** At most this many of the row's agent runs at once when concurrent (default: no limit of our own). */
  jobs?: number;
  /** The guard file the fail-open scenario deletes (default GUARD_PATH). */
  guardFile?: string;
  /** A plugin tool: where its loader's fail-open message lands (the tool's own log), read after a run. */
  loaderLog?(run: AgentRun): string;
  /** How the model words its `attempt`-th (0-based) repeat of one command: the default repeats it verbatim. */
  repeat?(command: string, attempt: number): string;
  /** What the run that the hand-off ends says (unattended): its exit code, and a text on its stdout. */
  stopped?: { exitCode: number; stdout?: string };
  /** The agent's own edit tool changing app.js from `from` to `to`, as its model would call it. */
  edit(repo: string, from: string, to: string): ToolStep;
  /** Steps the agent needs before its first edit of app.js (Claude Code refuses to edit a file it has not read). */
  beforeEdits?(repo: string): Array<string | ToolStep>;
  /** Settings the edit tool needs headless, written into the scaffolded repo. */
  prepareEdits?(repo: string): void;
  /** The CLI can settle a shell call on exit before its pipes: the scripted commands pause after writing (slow-pipes.ts). */
  slowPipes?: true;
  /** Once per file, before the row's scenarios (outside their timings). */
  warm?(): Promise<unknown>;
  /** How the AGENTS.md rule reaches the model, for the test name. */
  ruleVia: string;
  /** The hook whose answer puts the last hand-off note before a new session's first request (unattended). */
  noteVia?: 'SessionStart' | 'BeforeAgent' | 'UserPromptSubmit';
  skip?: Partial<Record<ScenarioId, string>>;
}

export const ROWS: AgentRow[] = [
  {
    agent: 'claude',
    writes: [GUARD_PATH, '.claude/settings.json', 'CLAUDE.md'],
    concurrent: false,
    edit: (repo, from, to) => ({
      name: 'Edit',
      input: { file_path: join(repo, 'app.js'), old_string: from, new_string: to },
    }),
    beforeEdits: (repo) => [{ name: 'Read', input: { file_path: join(repo, 'app.js') } }],
    prepareEdits(repo) {
      // In -p mode an edit needs acceptEdits (an allow rule alone is refused); added to the scaffolded settings.
      const path = join(repo, '.claude', 'settings.json');
      const settings = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      writeFileSync(path, JSON.stringify({ ...settings, permissions: { defaultMode: 'acceptEdits' } }, null, 2));
    },
    ruleVia: "CLAUDE.md's @AGENTS.md import",
    noteVia: 'SessionStart',
  },
  {
    agent: 'codex',
    writes: [GUARD_PATH, '.codex/hooks.json', '.codex/config.toml'],
    concurrent: false,
    edit: (_repo, from, to) => ({
      name: 'apply_patch',
      input: `*** Begin Patch\n*** Update File: app.js\n@@\n-${from}\n+${to}\n*** End Patch\n`,
      custom: true,
    }),
    prepareEdits(repo) {
      // Codex offers apply_patch only to a model in its catalog: the mock answers whatever the name.
      const path = join(repo, '.codex', 'config.toml');
      writeFileSync(path, `model = "gpt-5.5"\n${readFileSync(path, 'utf8')}`);
    },
    ruleVia: 'AGENTS.md, which Codex reads itself',
    noteVia: 'SessionStart',
  },
  {
    agent: 'opencode',
    // The plugin is a loader of the guard file, run in-process: no hook commands.
    writes: [GUARD_PATH, '.opencode/plugins/loop-guard.js'],
    concurrent: false,
    edit: (repo, from, to) => ({
      name: 'edit',
      input: { filePath: join(repo, 'app.js'), oldString: from, newString: to },
    }),
    warm: openCodeWarmTemplate,
    ruleVia: 'AGENTS.md, which OpenCode reads itself',
    // `--print-logs` puts OpenCode's log, where the loader's client.app.log line goes, on stderr.
    loaderLog: (run) => run.stderr,
  },
  {
    agent: 'gemini',
    writes: [GUARD_PATH, '.gemini/settings.json', 'GEMINI.md'],
    concurrent: true,
    edit: (repo, from, to) => ({
      name: 'replace',
      input: { file_path: join(repo, 'app.js'), old_string: from, new_string: to, instruction: 'bump v' },
    }),
    ruleVia: "GEMINI.md's @AGENTS.md import",
    noteVia: 'BeforeAgent',
  },
  {
    agent: 'copilot',
    writes: [GUARD_PATH, '.github/hooks/loop-guard.json'],
    concurrent: true,
    edit: (repo, from, to) => ({ name: 'edit', input: { path: join(repo, 'app.js'), old_str: from, new_str: to } }),
    ruleVia: 'AGENTS.md, which Copilot CLI reads itself',
    noteVia: 'UserPromptSubmit',
  },
  {
    agent: 'qwen',
    writes: [GUARD_PATH, '.qwen/settings.json'],
    concurrent: true,
    edit: (repo, from, to) => ({
      name: 'edit',
      input: { file_path: join(repo, 'app.js'), old_string: from, new_string: to },
    }),
    // Qwen refuses to edit a file the session has not read ("has not been read in this session").
    beforeEdits: (repo) => [{ name: 'read_file', input: { file_path: join(repo, 'app.js') } }],
    // Qwen Code 0.24.4 settles a headless shell call on the child's exit without waiting for its pipes, and sometimes
    // records 'Output: (empty)' for a script that exits right after writing.
    slowPipes: true,
    ruleVia: 'AGENTS.md, which Qwen Code reads itself',
    noteVia: 'UserPromptSubmit',
    skip: {
      'shell edits':
        "Qwen Code 0.24.4 refuses `sed -i` on a file the session has not read ('Use the read_file tool first'); " +
        'Claude Code, Codex and OpenCode prove shell edits',
      'shell edits, no git': 'as shell edits',
    },
  },
  {
    agent: 'cline',
    // A project plugin (its loader) plus the guard it loads: no hook commands.
    writes: [CLINE_PLUGIN, GUARD_PATH],
    concurrent: true,
    // Cline's own detector stops a run at the 5th identical call; a trailing comment is the same command for us (our
    // key drops it) with the same output (`2>&1` would move stderr), and another call for Cline, so what the table
    // measures is ours. cline.test.ts proves our warning comes first with verbatim repeats.
    repeat: (command, attempt) => (attempt % 2 ? `${command} # again` : command),
    edit: (repo, from, to) => ({ name: 'editor', input: { path: join(repo, 'app.js'), old_text: from, new_text: to } }),
    ruleVia: 'AGENTS.md, which Cline reads itself',
    stopped: { exitCode: 0 },
    // The loader logs through the logger Cline gives a plugin's setup: pino JSON in the run's HOME.
    loaderLog: (run) => {
      const log = join(run.home, '.cline', 'data', 'logs', 'cline.log');
      return existsSync(log) ? readFileSync(log, 'utf8') : '';
    },
    skip: { 'new turn': '`cline --id` cannot resume headless in 3.0.65: cline.test.ts proves the new turn over ACP' },
  },
  {
    agent: 'kilo',
    // The plugin is a loader of the guard file, run in-process: no hook commands.
    writes: [GUARD_PATH, KILO_PLUGIN],
    // A `kilo run` takes ~10 s to start on 2 cores (a Bun server per run): at most LOOP_GUARD_KILO_JOBS at a time.
    concurrent: true,
    jobs: Math.max(1, Number(process.env.LOOP_GUARD_KILO_JOBS) || 3),
    edit: (repo, from, to) => ({
      name: 'edit',
      input: { filePath: join(repo, 'app.js'), oldString: from, newString: to },
    }),
    ruleVia: 'AGENTS.md, which Kilo reads itself',
    // Kilo's stop is `client.session.abort`: an aborted `kilo run` (7.7.7) exits 1 with MessageAbortedError.
    stopped: { exitCode: 1, stdout: 'MessageAbortedError' },
    loaderLog: (run) => run.stderr,
  },
];
