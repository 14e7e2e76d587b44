// Builds the doctor's checklist for a repository: what is installed, and per tool whether it is wired, runs, guards,
// and leaves nothing that waits for a person. Reads the repo and the user's configs; writes only temp state dirs.
import { BLOCK_ID, isOurHookCommand } from '../tools/markers.ts';
import { lstatSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { readConfig } from '../scaffold/read-config.ts';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse as parseJsonc } from 'comment-json';
import { readDist } from '../assets.ts';
import { inspectBlock } from '../edit/md-block.ts';
import { PROFILE_LINE, profileTarget } from '../scaffold/profile.ts';
import { readOwnedHeader, withOwnedHeader } from '../edit/owned-file.ts';
import { MANIFEST_PATH } from '../scaffold/manifest.ts';
import { buildAssets } from '../assets.ts';
import { AGENT_ENV, GUARD_PATH, TOOL_NAMES, TOOLS, type ToolName } from '../tools/index.ts';
import { OLD_GUARD_PATH } from '../tools/markers.ts';
import { CURSOR_ENV_SNIPPET } from '../tools/cursor.ts';
import { OPENCODE_PLUGIN } from '../tools/opencode.ts';
import { approvalReminder, codexHome, docBudget, hooksDisabled, parseCodexConfig, readCodexConfig, rootKeys, trustCheck, type UserConfig } from './codex-trust.ts';
import { envSettingsCheck, guardSwitchedOff, includeOnlyDrops } from './env-settings.ts';
import { type Git, gitEnvCheck, gitRunner, type Overlay } from './git-env.ts';
import { auditHooks, hookSpecOf, type HookCommand, listHookCommands } from './hooks.ts';
import { runsOurFile } from './hook-command.ts';
import { guardFileCheck, manifestCheck, readManifestText } from './install.ts';
import { agentsBlockCheck, blockEndOffset, claudeImportCheck, codexInstructionsCheck, type InstructionDoc } from './instructions.ts';
import { nodeCheck } from './node.ts';
import { copilotTrustCheck, geminiTrustCheck } from './trust.ts';
import { judgePlugin, pluginFileCheck, probePlugin } from './opencode.ts';
import { type Driver, drivers, replay, type ReplayTool } from './replay.ts';
import { type ProcResult, runProcess, runShell } from './exec.ts';
import { type Check, type Env, fail, type Group, pass, RERUN } from './types.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);

export interface DoctorInput {
  root: string;
  env: Record<string, string | undefined>;
  home: string;
  version: string;
}

export interface DoctorResult {
  /** false: no manifest, no guard file, no hook entries, no plugin: nothing to check. */
  setUp: boolean;
  groups: Group[];
}

/** The guard's own switches and anything that would make the replay run as another tool or in another state dir. */
const REPLAY_STRIP = ['LOOP_GUARD', 'LOOP_GUARD_WARN', 'LOOP_GUARD_BLOCK', 'LOOP_GUARD_HANG', 'LOOP_GUARD_HANDOFF', 'LOOP_GUARD_STATE_DIR', 'CLAUDE_PROJECT_DIR', 'CURSOR_PROJECT_DIR', 'CURSOR_VERSION'];

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** A config file's text; null when missing or not a regular file under the size cap (a FIFO would hang doctor). */
function readAbs(path: string): string | null {
  try {
    return readConfig(path, path);
  } catch {
    return null;
  }
}

function parseJsonText(text: string | null): { doc?: unknown; problem?: string } {
  if (text === null) return { problem: 'does not exist' };
  try {
    return { doc: parseJsonc(text.replace(/^\uFEFF/, ''), undefined, true) };
  } catch (err) {
    return { problem: `is not valid JSON (${(err as Error).message.split('\n')[0]})` };
  }
}

function stringsOf(v: unknown): Env {
  const out: Env = {};
  for (const [k, x] of Object.entries(obj(v) ?? {})) if (typeof x === 'string') out[k] = x;
  return out;
}

interface Ctx extends DoctorInput {
  /** The user's environment as the agent tools inherit it (strings only). */
  base: Env;
  stateRoot: string;
  assets: ReturnType<typeof buildAssets>;
  git: Git;
  drivers: Record<ReplayTool, Driver>;
  read(rel: string): string | null;
  /** `~/x` for a path under $HOME, for messages. */
  tilde(path: string): string;
}

/** A runner for hook commands with a fresh, throw-away state dir, so the replay never touches the user's counts. */
function hookRunner(ctx: Ctx, extra: Env): (command: string, input: string) => Promise<ProcResult> {
  const dir = mkdtempSync(join(ctx.stateRoot, 'state-'));
  // The replay's hand-off note goes to the throw-away dir too: doctor never writes into the repository.
  const env: Env = { ...ctx.base, ...extra, LOOP_GUARD_STATE_DIR: dir, XDG_STATE_HOME: dir, LOOP_GUARD_HANDOFF_DIR: dir };
  for (const k of REPLAY_STRIP) if (!(k in extra) && k !== 'LOOP_GUARD_STATE_DIR') delete env[k];
  return (command, input) => runShell(command, { cwd: ctx.root, env, input });
}

// ───────────────────────────── discovery ─────────────────────────────

/** Tools with our traces in the repo: recorded in the manifest, or our hook entries / plugin found in place. */
export function configuredTools(read: (rel: string) => string | null, manifestTools: readonly ToolName[]): ToolName[] {
  const found = new Set<ToolName>(manifestTools);
  const mentions = (rel: string) => isOurHookCommand(read(rel));
  for (const t of TOOL_NAMES) {
    const { mentions: files = [], exists = [] } = TOOLS[t].doctor.traces;
    if (files.some(mentions) || exists.some((rel) => read(rel) !== null)) found.add(t);
  }
  return TOOL_NAMES.filter((t) => found.has(t));
}

// ───────────────────────────── per tool ─────────────────────────────

/** The path of a tool's config file of this kind, from its record (the one place paths are written). */
function configOf(tool: ToolName, kind: 'json' | 'toml-env'): string {
  const intent = TOOLS[tool].intents.find((i) => i.kind === kind);
  if (!intent) throw new Error(`${tool} has no ${kind} intent`);
  return intent.path;
}

/** `KEY=value` settings that switch the guard or its hang rules off, as "KEY=value in <where>". */
function switchOffs(env: Readonly<Record<string, string>>, where: string): string[] {
  return ['LOOP_GUARD', 'LOOP_GUARD_HANG'].filter((k) => guardSwitchedOff(env[k])).map((k) => `${k}=${env[k]} in ${where}`);
}

/**
 * `extraEnv` is what the tool gives every hook: its own variables, plus (Claude Code) the settings' `env`. Entries count
 * as ours only when they run exactly this repository's guard file with node, after resolving those variables.
 */
async function hookTool(ctx: Ctx, tool: ReplayTool, configPath: string, found: HookCommand[], problem: string | undefined, extraEnv: Env, overrides: Check | null, envWhere = '') {
  const vars: Env = { ...ctx.base, ...extraEnv, PWD: ctx.root };
  const ourRun = (command: string) => runsOurFile(command, join(ctx.root, GUARD_PATH), ctx.root, vars) ?? runsOurFile(command, join(realpathOr(ctx.root), GUARD_PATH), realpathOr(ctx.root), vars);
  const audit = auditHooks(tool, found, configPath, problem, (command) => ourRun(command) !== null);
  const offs = envWhere ? switchOffs(extraEnv, envWhere) : [];
  for (const [event, command] of Object.entries(audit.commands)) offs.push(...switchOffs(ourRun(command)?.assignments ?? {}, `the ${event} hook command`));
  // A switch that turns all hooks off comes first; missing entries are still named after it.
  let wiring =
    overrides && !audit.check.ok
      ? { ...overrides, message: `${overrides.message}; ${audit.check.message}`, fix: `${overrides.fix}; ${audit.check.fix}` }
      : (overrides ?? audit.check);
  if (offs.length) {
    const off = fail(`${tool}.hooks`, `${[...new Set(offs)].join('; ')}: the guard (or its hang rules) is switched off for ${TOOLS[tool].label}`, 'remove that setting');
    wiring = wiring.ok ? off : { ...wiring, message: `${wiring.message}; ${off.message}`, fix: `${wiring.fix}; ${off.fix}` };
  }
  const checks: Check[] = [wiring];
  const run = hookRunner(ctx, extraEnv);
  // Separate state dirs, so the two can run side by side.
  const [node, replayed] = await Promise.all([
    nodeCheck(tool, Object.values(audit.commands), hookRunner(ctx, extraEnv)),
    replay(tool, ctx.drivers[tool], audit.commands, (command, payload) => run(command, JSON.stringify(payload)), configPath),
  ]);
  checks.push(node, replayed);
  return checks;
}

async function claudeGroup(ctx: Ctx): Promise<Check[]> {
  const path = configOf('claude', 'json');
  const { doc, problem } = parseJsonText(ctx.read(path));
  const local = parseJsonText(ctx.read('.claude/settings.local.json')).doc;
  const user = parseJsonText(readAbs(join(ctx.home, '.claude', 'settings.json'))).doc;
  const layers: Array<[string, unknown]> = [[path, doc], ['.claude/settings.local.json', local], [ctx.tilde(join(ctx.home, '.claude', 'settings.json')), user]];
  const off = layers.find(([, d]) => obj(d)?.disableAllHooks === true);
  const disabled = off ? fail('claude.hooks', `${off[0]} sets "disableAllHooks": true, so Claude Code runs no hooks at all`, `remove "disableAllHooks" from ${off[0]}`) : null;
  // Claude Code gives its hooks the settings' env too; later layers win, as in Claude Code.
  const settingsEnv = { ...stringsOf(obj(user)?.env), ...stringsOf(obj(doc)?.env), ...stringsOf(obj(local)?.env) };
  const checks = await hookTool(ctx, 'claude', path, doc === undefined ? [] : listHookCommands(doc, 'nested', path), problem, { ...settingsEnv, CLAUDE_PROJECT_DIR: ctx.root }, disabled, 'the Claude Code settings "env"');
  checks.push(envSettingsCheck('claude', `${path} "env"`, problem ? undefined : obj(obj(doc)?.env)));
  // Later settings layers win: user, then project, then local.
  const overlay: Overlay = { env: { ...stringsOf(obj(user)?.env), ...stringsOf(obj(doc)?.env), ...stringsOf(obj(local)?.env) }, source: `${path} "env"` };
  checks.push(await gitEnvCheck('claude', TOOLS.claude.doctor.shellLabel, ctx.base, overlay, ctx.git));
  const claudeFiles = ['CLAUDE.md', '.claude/CLAUDE.md'].map((p) => {
    let symlinkToAgents = false;
    try {
      symlinkToAgents = lstatSync(join(ctx.root, p)).isSymbolicLink() && realpathSync(join(ctx.root, p)) === realpathSync(join(ctx.root, 'AGENTS.md'));
    } catch {
      // not a link, or a dangling one
    }
    return { path: p, text: ctx.read(p), symlinkToAgents };
  });
  checks.push(claudeImportCheck(claudeFiles));
  return checks;
}

async function instructionDocs(ctx: Ctx): Promise<InstructionDoc[]> {
  const names = ['AGENTS.md', 'AGENTS.override.md'] as const;
  const listed = await runProcess('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...names, ...names.map((n) => `*/${n}`)], { cwd: ctx.root, env: ctx.base });
  const paths = new Set<string>(names);
  if (listed.status === 0) for (const p of listed.stdout.split('\0')) if (p) paths.add(p);
  const docs: InstructionDoc[] = [];
  for (const p of paths) {
    const name = p.split('/').pop();
    if (name !== 'AGENTS.md' && name !== 'AGENTS.override.md') continue;
    try {
      const st = statSync(join(ctx.root, p));
      if (st.isFile()) docs.push({ dir: p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '', name, bytes: st.size });
    } catch {
      // listed but gone (deleted in the work tree)
    }
  }
  return docs;
}

async function codexGroup(ctx: Ctx): Promise<Check[]> {
  const hooksPath = configOf('codex', 'json');
  const configPath = configOf('codex', 'toml-env');
  const hooksJson = parseJsonText(ctx.read(hooksPath));
  const configText = ctx.read(configPath);
  const project: UserConfig | null = configText === null ? null : parseCodexConfig(configPath, configText);
  const projectDoc = project && 'doc' in project ? project.doc : undefined;
  const found = [
    ...(hooksJson.doc === undefined ? [] : listHookCommands(hooksJson.doc, 'nested', hooksPath)),
    ...(projectDoc ? listHookCommands(projectDoc, 'nested', configPath) : []),
  ];
  // Hooks may also live in [hooks] of config.toml; only when neither has ours is the missing hooks.json the story.
  const problem = found.some((h) => isOurHookCommand(h.command)) ? undefined : hooksJson.problem;
  const userPath = join(codexHome(ctx.env, ctx.home), 'config.toml');
  const shownUser = ctx.env.CODEX_HOME ? '$CODEX_HOME/config.toml' : ctx.tilde(userPath);
  const user = readCodexConfig(userPath);
  const userDoc = 'doc' in user ? user.doc : undefined;
  const offIn = hooksDisabled(projectDoc) ? configPath : hooksDisabled(userDoc) ? shownUser : null;
  const disabled = offIn ? fail('codex.hooks', `${offIn} sets [features] hooks = false, so Codex runs no hooks at all`, `remove that line from ${offIn}`) : null;
  const checks = await hookTool(ctx, 'codex', hooksPath, found, problem, {}, disabled);

  const where = `${configPath} [shell_environment_policy] set`;
  if (project && 'error' in project) checks.push(fail('codex.env', `${configPath} is not valid TOML: ${project.error}`, `fix the TOML syntax in ${configPath}, then ${RERUN}`));
  else {
    const policy = obj(projectDoc?.shell_environment_policy);
    const dropped = includeOnlyDrops(policy?.include_only);
    const extra = dropped.length ? [`its include_only list drops ${dropped.join(', ')} again`] : [];
    checks.push(envSettingsCheck('codex', where, configText === null ? undefined : obj(policy?.set), extra));
  }
  const set = stringsOf(obj(obj(projectDoc?.shell_environment_policy)?.set));
  // Codex sets these for every command it runs, after the config, so they always win.
  const overlay: Overlay = { env: set, source: where, forced: { PAGER: 'cat', GIT_PAGER: 'cat', GH_PAGER: 'cat' }, forcedBy: 'Codex itself' };
  checks.push(await gitEnvCheck('codex', TOOLS.codex.doctor.shellLabel, ctx.base, overlay, ctx.git));

  const roots = rootKeys(ctx.root);
  checks.push(trustCheck(user, roots, shownUser));
  checks.push(approvalReminder(user, roots, hookSpecOf('codex')?.hooks.events.map((e) => e.event) ?? []));
  const agents = ctx.read('AGENTS.md');
  checks.push(codexInstructionsCheck(await instructionDocs(ctx), agents === null ? null : blockEndOffset(agents), docBudget(userDoc, projectDoc)));
  return checks;
}


/** Whether the user's shell profile gives Cursor's agent shell our environment (read only; opt-in at install). */
function cursorProfile(ctx: Ctx): { loaded: boolean; where: string } {
  const target = profileTarget(ctx.env, ctx.home);
  if (!target) return { loaded: false, where: `your shell profile ($SHELL is ${ctx.env.SHELL ?? 'unset'}, which create-loop-guard cannot check)` };
  const where = ctx.tilde(target.path);
  const text = readAbs(target.path);
  if (text === null) return { loaded: false, where };
  if (text.includes('loop-guard-env.sh')) return { loaded: true, where };
  if (target.kind === 'fish') return { loaded: readOwnedHeader(text) !== null, where };
  const state = inspectBlock(text, { id: BLOCK_ID, version: ctx.version, body: ctx.assets.profileBlock, style: 'shell' }).state;
  return { loaded: state === 'current' || state === 'outdated' || state === 'edited', where };
}

async function cursorGroup(ctx: Ctx): Promise<Check[]> {
  const path = configOf('cursor', 'json');
  const { doc, problem } = parseJsonText(ctx.read(path));
  const badVersion = doc !== undefined && obj(doc)?.version !== 1 ? fail('cursor.hooks', `${path} has no "version": 1, which Cursor requires`, `add "version": 1 at the top level of ${path}`) : null;
  const checks = await hookTool(ctx, 'cursor', path, doc === undefined ? [] : listHookCommands(doc, 'flat', path), problem, { CURSOR_PROJECT_DIR: ctx.root, CLAUDE_PROJECT_DIR: ctx.root }, badVersion);

  const snippet = ctx.read(CURSOR_ENV_SNIPPET);
  const header = snippet === null ? null : readOwnedHeader(snippet);
  const profile = cursorProfile(ctx);
  if (snippet === null) checks.push(fail('cursor.env', `${CURSOR_ENV_SNIPPET} is missing`, `${RERUN} to write it`));
  else if (!header) checks.push(fail('cursor.env', `${CURSOR_ENV_SNIPPET} has no create-loop-guard header`, `move it away, then ${RERUN}`));
  else if (header.version !== ctx.version) checks.push(fail('cursor.env', `${CURSOR_ENV_SNIPPET} is v${header.version}; this create-loop-guard is v${ctx.version}`, `${RERUN} to upgrade it`));
  else if (!profile.loaded) {
    checks.push(
      fail(
        'cursor.env',
        `Cursor has no project setting for its agent's shell environment, and ${profile.where} does not set it, so Cursor's agent keeps your own pager and editor`,
        `npx create-loop-guard --shell-profile, or add this line to your shell profile: ${PROFILE_LINE}`,
      ),
    );
  } else checks.push(pass('cursor.env', `${CURSOR_ENV_SNIPPET} is current and ${profile.where} sets ${Object.entries(AGENT_ENV).map(([k, v]) => `${k}=${v}`).join(', ')} in Cursor's agent shell`));
  const overlay: Overlay = { env: profile.loaded ? { ...AGENT_ENV } : {}, source: profile.where };
  checks.push(await gitEnvCheck('cursor', TOOLS.cursor.doctor.shellLabel, ctx.base, overlay, ctx.git));
  return checks;
}

async function opencodeGroup(ctx: Ctx): Promise<Check[]> {
  const text = ctx.read(OPENCODE_PLUGIN);
  const expected = withOwnedHeader(readDist('opencode-plugin.js'), '//', ctx.version);
  const checks: Check[] = [pluginFileCheck(OPENCODE_PLUGIN, text, expected, ctx.version)];
  let env: Env = {};
  if (text === null) checks.push(fail('opencode.load', `${OPENCODE_PLUGIN} is not there to load`, `${RERUN} --tools opencode`));
  else {
    const dir = mkdtempSync(join(ctx.stateRoot, 'state-'));
    const childEnv: Env = { ...ctx.base, XDG_STATE_HOME: dir, LOOP_GUARD_STATE_DIR: dir };
    for (const k of REPLAY_STRIP) if (k !== 'LOOP_GUARD_STATE_DIR') delete childEnv[k];
    const { probe, run } = await probePlugin(join(ctx.root, OPENCODE_PLUGIN), ctx.root, childEnv);
    checks.push(judgePlugin(OPENCODE_PLUGIN, probe, run));
    env = probe?.env ?? {};
  }
  checks.push(await gitEnvCheck('opencode', TOOLS.opencode.doctor.shellLabel, ctx.base, { env, source: `the plugin's shell.env` }, ctx.git));
  return checks;
}

async function geminiGroup(ctx: Ctx): Promise<Check[]> {
  const path = configOf('gemini', 'json');
  const { doc, problem } = parseJsonText(ctx.read(path));
  const userPath = join(ctx.env.GEMINI_CLI_HOME ?? ctx.home, '.gemini');
  const user = parseJsonText(readAbs(join(userPath, 'settings.json'))).doc;
  const foldersPath = ctx.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH ?? join(userPath, 'trustedFolders.json');
  const off = [[path, doc], ['~/.gemini/settings.json', user]].find(([, d]) => obj(obj(d)?.hooksConfig)?.enabled === false);
  const disabled = off ? fail('gemini.hooks', `${String(off[0])} sets "hooksConfig": { "enabled": false }, so Gemini CLI runs no hooks at all`, `remove it from ${String(off[0])}`) : null;
  const checks = await hookTool(ctx, 'gemini', path, doc === undefined ? [] : listHookCommands(doc, 'nested', path), problem, {}, disabled);
  checks.push(geminiTrustCheck(realpathOr(ctx.root), ctx.base, user, parseJsonText(readAbs(foldersPath)).doc, ctx.tilde(foldersPath)));
  checks.push(await gitEnvCheck('gemini', TOOLS.gemini.doctor.shellLabel, ctx.base, { env: { PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' }, source: "Gemini CLI's own shell settings" }, ctx.git));
  return checks;
}

async function copilotGroup(ctx: Ctx): Promise<Check[]> {
  const path = configOf('copilot', 'json');
  const { doc, problem } = parseJsonText(ctx.read(path));
  const configPath = join(ctx.env.COPILOT_HOME ?? join(ctx.home, '.copilot'), 'config.json');
  const config = parseJsonText(readAbs(configPath)).doc;
  const disabled = obj(config)?.disableAllHooks === true ? fail('copilot.hooks', `${ctx.tilde(configPath)} sets "disableAllHooks": true, so Copilot CLI runs no hooks at all`, `remove it from ${ctx.tilde(configPath)}`) : null;
  const checks = await hookTool(ctx, 'copilot', path, doc === undefined ? [] : listHookCommands(doc, 'nested', path), problem, {}, disabled);
  checks.push(copilotTrustCheck(realpathOr(ctx.root), ctx.base, config, ctx.tilde(configPath)));
  checks.push(await gitEnvCheck('copilot', TOOLS.copilot.doctor.shellLabel, ctx.base, { env: {}, source: 'no setting of ours (Copilot CLI has none for its shell)' }, ctx.git));
  return checks;
}

async function qwenGroup(ctx: Ctx): Promise<Check[]> {
  const path = configOf('qwen', 'json');
  const { doc, problem } = parseJsonText(ctx.read(path));
  const off = obj(doc)?.disableAllHooks === true ? fail('qwen.hooks', `${path} sets "disableAllHooks": true, so Qwen Code runs no hooks at all`, `remove "disableAllHooks" from ${path}`) : null;
  const checks = await hookTool(ctx, 'qwen', path, doc === undefined ? [] : listHookCommands(doc, 'nested', path), problem, { QWEN_PROJECT_DIR: ctx.root, CLAUDE_PROJECT_DIR: ctx.root }, off);
  checks.push(await gitEnvCheck('qwen', TOOLS.qwen.doctor.shellLabel, ctx.base, { env: { PAGER: 'cat' }, source: "Qwen Code's own shell settings" }, ctx.git));
  return checks;
}

/** A tool with no checks of its own yet: its own owned files (e.g. Cline's plugin) are ours and current; whether its shell's git pager and editor wait for a person. */
async function genericGroup(tool: ToolName, ctx: Ctx): Promise<Check[]> {
  const owned = TOOLS[tool].intents.flatMap((i) => (i.kind === 'owned' && i.path !== GUARD_PATH ? [i] : []));
  const files = owned.map(({ path, asset }): Check => {
    const [text, id] = [ctx.read(path), `${tool}.file`];
    const header = text === null ? null : readOwnedHeader(text);
    if (text === null) return fail(id, `${path} is missing, so ${TOOLS[tool].label} runs no loop guard`, `${RERUN} --tools ${tool}`);
    if (!header || header.version !== ctx.version) return fail(id, `${path} is ${header ? `v${header.version}` : 'not ours (no create-loop-guard header)'}; this create-loop-guard is v${ctx.version}`, header ? `${RERUN} to upgrade it` : `move it away, then ${RERUN}`);
    if (text.replace(/\r\n/g, '\n') !== ctx.assets[asset]) return fail(id, `${path} differs from the file v${ctx.version} ships (edited by hand?)`, `${RERUN} to replace it`);
    return pass(id, `${path} is ours and current (v${ctx.version})`);
  });
  return [...files, await gitEnvCheck(tool, TOOLS[tool].doctor.shellLabel, ctx.base, { env: {}, source: 'no setting of ours' }, ctx.git)];
}

/** Tools whose config has quirks worth checking (disabled hooks, trust, replayed payloads); the rest get genericGroup. */
const TOOL_GROUPS: Partial<Record<ToolName, (c: Ctx) => Promise<Check[]>>> = { claude: claudeGroup, codex: codexGroup, cursor: cursorGroup, opencode: opencodeGroup, gemini: geminiGroup, copilot: copilotGroup, qwen: qwenGroup };

// ───────────────────────────── the list ─────────────────────────────

export async function runChecks(input: DoctorInput): Promise<DoctorResult> {
  const { root } = input;
  const read = (rel: string) => readAbs(join(root, rel));
  const manifestRead = readManifestText(read(MANIFEST_PATH));
  const tools = configuredTools(read, 'manifest' in manifestRead ? manifestRead.manifest.tools : []);
  const guardText = read(GUARD_PATH);
  if ('missing' in manifestRead && guardText === null && read(OLD_GUARD_PATH) === null && !tools.length) return { setUp: false, groups: [] };

  const base: Env = {};
  for (const [k, v] of Object.entries(input.env)) if (typeof v === 'string') base[k] = v;
  const stateRoot = mkdtempSync(join(tmpdir(), 'loop-guard-doctor-'));
  const tilde = (p: string) => {
    const rel = relative(input.home, p);
    return rel && !rel.startsWith('..') && !rel.startsWith('/') ? `~/${rel}` : p;
  };
  try {
    const ctx: Ctx = { ...input, base, stateRoot, assets: buildAssets(input.version), git: gitRunner(root), drivers: drivers(root), read, tilde };
    const repo: Check[] = [manifestCheck(manifestRead, input.version)];
    if (tools.some((t) => TOOLS[t].intents.some((i) => i.path === GUARD_PATH)) || guardText !== null) repo.push(guardFileCheck(guardText, ctx.assets.guard, input.version, read(OLD_GUARD_PATH) !== null));
    repo.push(agentsBlockCheck(read('AGENTS.md'), { id: BLOCK_ID, version: input.version, body: ctx.assets.agentsBlock, style: 'markdown' }));
    repo.push(
      guardSwitchedOff(base.LOOP_GUARD)
        ? fail('repo.switch', `LOOP_GUARD=${base.LOOP_GUARD} in this environment switches the guard off for every agent started from it`, 'unset LOOP_GUARD (and remove it from your shell profile)')
        : pass('repo.switch', 'LOOP_GUARD is not switched off in this environment'),
    );
    if (!tools.length) repo[0] = fail('repo.manifest', `${MANIFEST_PATH} records no agent tool and no loop-guard hook entries were found`, `${RERUN} --tools ${TOOL_NAMES.join(',')} (the ones you use)`);
    const results = await Promise.all(tools.map((t) => (TOOL_GROUPS[t] ?? ((c: Ctx) => genericGroup(t, c)))(ctx)));
    const groups: Group[] = [{ name: 'repo', label: 'Repository', checks: repo }];
    tools.forEach((t, i) => groups.push({ name: t, label: TOOLS[t].label, checks: results[i] ?? [] }));
    return { setUp: true, groups };
  } finally {
    rmSync(stateRoot, { recursive: true, force: true });
  }
}

