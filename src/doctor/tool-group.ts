// One tool's checks, driven by its record (TOOLS[t].doctor): a tool with command hooks gets the wiring, node, replay,
// env, git, trust and its further checks; a tool with a plugin gets the plugin's; any other tool the git check.
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { innerGuardCommand } from '../tools/hook-command.ts';
import { isOurHookCommand } from '../tools/markers.ts';
import { readRendered } from '../assets.ts';
import { readOwnedHeader, withOwnedHeader } from '../edit/owned-file.ts';
import { AGENT_ENV, GUARD_PATH, type Intent, TOOLS, type ToolName, type ToolRecord } from '../tools/index.ts';
import { brokenRule, type LoadedFile, loadFiles, stringsOf, valueAt, type Where } from './config-files.ts';
import { type Ctx, childEnv, hookRunner, readAbs, realpathOr } from './context.ts';
import { envSettingsCheck, guardSwitchedOff, includeOnlyDrops } from './env-settings.ts';
import {
  alsoRunsCheck,
  approvalReminder,
  budgetOf,
  knownEventsCheck,
  profileEnvCheck,
  profileLoads,
} from './extra-checks.ts';
import { gitEnvCheck, type Overlay } from './git-env.ts';
import { auditHooks, type HookCommand, listHookCommands } from './hooks.ts';
import { runsOurFile } from './hook-command.ts';
import { blockEndOffset } from '../edit/md-block.ts';
import { importCheck, type InstructionDoc, instructionsBudgetCheck } from './instructions.ts';
import { importTarget, placeStopRule, readsAgentsElsewhere } from '../scaffold/stop-rule.ts';
import { nodeCheck } from './node.ts';
import { judgePlugin, pluginFileCheck, probePlugin } from './plugin.ts';
import { driverFor, replay } from './replay.ts';
import { rootKeys, trustCheck } from './trust.ts';
import { runProcess } from './exec.ts';
import { type Check, type Env, fail, note, pass, RERUN } from './types.ts';
import { obj } from '../guard/json-value.ts';

type JsonIntent = Intent & { kind: 'json' };

/** A setting that switches the guard or its hang rules off: what it is and where, and how to take it out. */
interface SwitchOff {
  say: string;
  fix: string;
}

const SWITCHES = ['LOOP_GUARD', 'LOOP_GUARD_HANG'] as const;

/** The switches among a hook command's own `KEY=value` prefixes. */
function commandOffs(assignments: Readonly<Record<string, string>>, event: string, configPath: string): SwitchOff[] {
  return SWITCHES.filter((k) => guardSwitchedOff(assignments[k])).map((k) => ({
    say: `${k}=${assignments[k]} in the ${event} hook command`,
    fix: `remove ${k}=${assignments[k]} from the ${event} hook command in ${configPath}`,
  }));
}

/** The switches in the settings' env tables, each named by the file whose value wins (the last one setting it). */
function settingsOffs(record: ToolRecord, files: ReadonlyMap<string, LoadedFile>, envPath: readonly string[]) {
  const offs: SwitchOff[] = [];
  const table = envPath.join('.');
  for (const key of SWITCHES) {
    let last: { file: LoadedFile; value: string } | undefined;
    for (const name of record.doctor.settingsEnv?.files ?? []) {
      const file = files.get(name);
      const value = stringsOf(valueAt(file?.doc, envPath))[key];
      if (file && value !== undefined) last = { file, value };
    }
    if (last && guardSwitchedOff(last.value))
      offs.push({
        say: `${key}=${last.value} in ${last.file.shown} "${table}"`,
        fix: `remove "${key}" from "${table}" in ${last.file.shown}`,
      });
  }
  return offs;
}

const withRoot = (vars: Readonly<Record<string, string>>, root: string): Env =>
  Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, v.replaceAll('{root}', root)]));

/** The settings' env tables merged, later files winning (what the tool gives its hooks and its shell). */
function settingsEnvOf(record: ToolRecord, files: ReadonlyMap<string, LoadedFile>, envPath: readonly string[]): Env {
  const merged: Env = {};
  for (const name of record.doctor.settingsEnv?.files ?? [])
    Object.assign(merged, stringsOf(valueAt(files.get(name)?.doc, envPath)));
  return merged;
}

/**
 * `<tool>.hooks`, `.node`, `.replay`. `extraEnv` is what the tool gives every hook: its own variables, plus the
 * settings' env where it has one. Entries count as ours only when they run exactly this repository's guard file with
 * node, after resolving those variables.
 */
async function wiredChecks(
  ctx: Ctx,
  tool: ToolName,
  configPath: string,
  found: HookCommand[],
  problem: string | undefined,
  extraEnv: Env,
  overrides: Check | null,
  settingOffs: readonly SwitchOff[],
): Promise<Check[]> {
  const vars: Env = { ...ctx.base, ...extraEnv, PWD: ctx.root };
  const ourRun = (command: string) =>
    runsOurFile(command, join(ctx.root, GUARD_PATH), ctx.root, vars) ??
    runsOurFile(command, join(realpathOr(ctx.root), GUARD_PATH), realpathOr(ctx.root), vars);
  const audit = auditHooks(tool, found, configPath, problem, (command) => ourRun(command) !== null);
  const offs = [...settingOffs];
  for (const [event, command] of Object.entries(audit.commands))
    offs.push(...commandOffs(ourRun(command)?.assignments ?? {}, event, configPath));
  // A switch that turns all hooks off comes first; missing entries are still named after it.
  let wiring =
    overrides && !audit.check.ok
      ? {
          ...overrides,
          message: `${overrides.message}; ${audit.check.message}`,
          fix: `${overrides.fix}; ${audit.check.fix}`,
        }
      : (overrides ?? audit.check);
  if (offs.length) {
    const off = fail(
      `${tool}.hooks`,
      `${offs.map((o) => o.say).join('; ')}: the guard${offs.every((o) => o.say.startsWith('LOOP_GUARD_HANG')) ? "'s hang rules are" : ' is'} switched off for ${TOOLS[tool].label}`,
      offs.map((o) => o.fix).join('; '),
    );
    wiring = wiring.ok
      ? off
      : { ...wiring, message: `${wiring.message}; ${off.message}`, fix: `${wiring.fix}; ${off.fix}` };
  }
  const checks: Check[] = [wiring];
  const run = hookRunner(ctx, extraEnv);
  const driver = driverFor(tool, ctx.root);
  // Separate state dirs, so the two can run side by side.
  // Run what our fail-open shape wraps: its `|| true` would hide a missing node or a crash from these checks.
  const inner = Object.fromEntries(Object.entries(audit.commands).map(([e, c]) => [e, innerGuardCommand(c)]));
  const [node, replayed] = await Promise.all([
    nodeCheck(tool, Object.values(inner), hookRunner(ctx, extraEnv)),
    driver
      ? replay(tool, driver, inner, (command, payload) => run(command, JSON.stringify(payload)), configPath)
      : Promise.resolve(
          note(
            `${tool}.replay`,
            `not replayed: the ${TOOLS[tool].label} record gives no captured payloads to replay (doctor.replay)`,
          ),
        ),
  ]);
  checks.push(node, replayed);
  return checks;
}

async function instructionDocs(ctx: Ctx): Promise<InstructionDoc[]> {
  const names = ['AGENTS.md', 'AGENTS.override.md'] as const;
  const listed = await runProcess(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...names, ...names.map((n) => `*/${n}`)],
    { cwd: ctx.root, env: ctx.base },
  );
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

function linksTo(ctx: Ctx, path: string, target: string): boolean {
  try {
    return (
      lstatSync(join(ctx.root, path)).isSymbolicLink() &&
      realpathSync(join(ctx.root, path)) === realpathSync(join(ctx.root, target))
    );
  } catch {
    return false; // not a link, or a dangling one
  }
}

/** A json intent's files as loaded: the hook file, the env file, and what the hooks check made of them. */
interface HookFiles {
  files: Map<string, LoadedFile>;
  hooksFile: LoadedFile;
  envFile: LoadedFile | undefined;
  envPath: readonly string[];
  /** The hook file's own problem, when no file has our hook. */
  problem: string | undefined;
  settingsEnv: Env;
}

/** A tool with a json intent: its hook file, the other files it names, and the checks its record asks for. */
async function hookGroup(ctx: Ctx, tool: ToolName, record: ToolRecord, spec: JsonIntent): Promise<Check[]> {
  const d = record.doctor;
  const where: Where = { root: ctx.root, home: ctx.home, env: ctx.env, tilde: ctx.tilde };
  const files = loadFiles(record, where, readAbs);
  const hooksFile = files.get('hooks') as LoadedFile;
  const envFile = files.get('env');
  const found = ['hooks', ...(d.hooksAlsoIn ?? [])].flatMap((name) => {
    const f = files.get(name);
    return f?.doc === undefined ? [] : listHookCommands(f.doc, spec.hooks.style, f.path);
  });
  // Hooks may live in more than one file; only when none has ours is the hook file's own problem the story.
  const problem = found.some((h) => isOurHookCommand(h.command)) ? undefined : hooksFile.problem;
  const envPath = spec.env?.path ?? [];
  const settingsEnv = d.settingsEnv ? settingsEnvOf(record, files, envPath) : {};
  const extraEnv: Env = { ...settingsEnv, ...withRoot(d.hookEnv ?? {}, ctx.root) };
  const checks = await wiredChecks(
    ctx,
    tool,
    hooksFile.path,
    found,
    problem,
    extraEnv,
    brokenRule(`${tool}.hooks`, d.hookRules ?? [], files),
    d.settingsEnv ? settingsOffs(record, files, envPath) : [],
  );
  const hf: HookFiles = { files, hooksFile, envFile, envPath, problem, settingsEnv };
  const overlay = envChecks(ctx, tool, record, spec, hf, checks);
  checks.push(await gitEnvCheck(tool, d.shellLabel, ctx.base, overlay, ctx.git));

  const roots = rootKeys(ctx.root, realpathSync);
  if (d.trust) checks.push(trustCheck(tool, d.trust, { root: realpathOr(ctx.root), roots, env: ctx.base, files }));
  for (const c of d.checks ?? []) {
    const check = await recordCheck(ctx, tool, record, spec, hf, roots, c);
    if (check) checks.push(check);
  }
  return checks;
}

/**
 * Our environment values: where the record's intents put them (their checks go to `checks`), and what reaches the
 * tool's shell, for the git environment check.
 */
function envChecks(ctx: Ctx, tool: ToolName, record: ToolRecord, spec: JsonIntent, hf: HookFiles, checks: Check[]) {
  const d = record.doctor;
  const { hooksFile, envFile, envPath, problem, settingsEnv } = hf;
  let overlay: Overlay = {
    env: d.shellEnv && !d.shellEnv.forced ? d.shellEnv.env : {},
    source: d.shellEnv && !d.shellEnv.forced ? d.shellEnv.source : 'no setting of ours',
  };
  if (spec.env) {
    const shown = `${hooksFile.path} "${envPath.join('.')}"`;
    // The hooks check names the switches of a settings env, and a hook file it cannot read: said there, once.
    const env = envSettingsCheck(tool, shown, problem ? undefined : obj(valueAt(hooksFile.doc, envPath)), [], {
      switches: !d.settingsEnv,
    });
    checks.push(problem && !env.ok ? { ...env, cause: `${tool}.hooks` } : env);
    overlay = { env: d.settingsEnv ? settingsEnv : stringsOf(valueAt(hooksFile.doc, envPath)), source: shown };
  }
  if (envFile) {
    const shown = `${envFile.path} [shell_environment_policy] set`;
    const policy = obj(obj(envFile.doc)?.shell_environment_policy);
    if (envFile.text !== null && envFile.doc === undefined)
      checks.push(
        fail(
          `${tool}.env`,
          `${envFile.path} is not valid TOML: ${envFile.problem}`,
          `fix the TOML syntax in ${envFile.path}, then ${RERUN}`,
        ),
      );
    else {
      const dropped = includeOnlyDrops(policy?.include_only);
      const extra = dropped.length ? [`its include_only list drops ${dropped.join(', ')} again`] : [];
      checks.push(envSettingsCheck(tool, shown, envFile.text === null ? undefined : obj(policy?.set), extra));
    }
    overlay = { env: stringsOf(policy?.set), source: shown };
  }
  const profile = d.checks?.find((c) => c.kind === 'profile-env');
  if (profile?.kind === 'profile-env') {
    const loads = profileLoads(profile.snippet, {
      env: ctx.env,
      home: ctx.home,
      version: ctx.version,
      profileBlock: ctx.assets.profileBlock,
      tilde: ctx.tilde,
      readAbs,
    });
    checks.push(
      profileEnvCheck(tool, record.label, d.shellLabel, profile.snippet, ctx.read(profile.snippet), ctx.version, loads),
    );
    overlay = { env: loads.loaded ? { ...AGENT_ENV } : {}, source: loads.where };
  }
  if (d.shellEnv?.forced) overlay = { ...overlay, forced: d.shellEnv.env, forcedBy: d.shellEnv.source };
  return overlay;
}

/** One of the checks the record asks for by kind (profile-env is envChecks'); null when it has nothing to check. */
async function recordCheck(
  ctx: Ctx,
  tool: ToolName,
  record: ToolRecord,
  spec: JsonIntent,
  hf: HookFiles,
  roots: ReturnType<typeof rootKeys>,
  c: NonNullable<ToolRecord['doctor']['checks']>[number],
): Promise<Check | null> {
  const { files, hooksFile, envFile } = hf;
  if (c.kind === 'import') {
    const own = record.intents.find((i): i is Intent & { kind: 'import' } => i.kind === 'import');
    if (!own) return null;
    // Where the install puts the rule can turn on a setting (Gemini's contextFileName): the file it names, or none.
    const intent = own.contextSetting ? placeStopRule(own, ctx.read) : own;
    const elsewhere = own.contextSetting ? readsAgentsElsewhere(intent, ctx.read) : null;
    if (elsewhere) return pass(`${tool}.import`, elsewhere);
    const target = importTarget(intent);
    const paths = [intent.path, ...(c.also ?? [])];
    return importCheck(
      tool,
      record.label,
      intent.line,
      paths.map((p) => ({ path: p, text: ctx.read(p), symlinkToAgents: linksTo(ctx, p, target) })),
    );
  }
  if (c.kind === 'also-runs') return alsoRunsCheck(tool, record.label, c.file, c.setting, ctx.read(c.file));
  if (c.kind === 'known-events')
    return knownEventsCheck(tool, record.label, hooksFile.path, hooksFile.doc, c.known, c.source);
  if (c.kind === 'hook-approval')
    return approvalReminder(
      tool,
      c.how,
      files.get(c.file),
      hooksFile.path,
      roots,
      spec.hooks.events.map((e) => e.event),
    );
  if (c.kind === 'instructions-budget') {
    const agents = ctx.read('AGENTS.md');
    const budget = budgetOf(c.key, files.get(c.file)?.doc, envFile?.doc, c.bytes);
    const setting = { key: c.key, configPath: envFile?.path ?? files.get(c.file)?.shown ?? c.file };
    return instructionsBudgetCheck(
      tool,
      record.label,
      setting,
      await instructionDocs(ctx),
      agents === null ? null : blockEndOffset(agents),
      budget,
    );
  }
  return null;
}

/** A tool whose guard is an in-process plugin: the file, whether it loads and guards, and what its shell gets. */
async function pluginGroup(ctx: Ctx, tool: ToolName, record: ToolRecord): Promise<Check[]> {
  const facts = record.doctor.plugin;
  if (!facts) return [];
  const text = ctx.read(facts.path);
  const expected = withOwnedHeader(readRendered(facts.dist), '//', ctx.version);
  const checks: Check[] = [pluginFileCheck(tool, record.label, facts.path, text, expected, ctx.version)];
  let env: Env = {};
  if (text === null)
    checks.push(fail(`${tool}.load`, `${facts.path} is not there to load`, `${RERUN} --tools ${tool}`));
  else {
    const { probe, run } = await probePlugin(
      tool,
      record.label,
      facts,
      join(ctx.root, facts.path),
      ctx.root,
      childEnv(ctx),
    );
    checks.push(judgePlugin(tool, record.label, facts.hooks, facts.path, probe, run));
    env = probe?.env ?? {};
  }
  checks.push(
    await gitEnvCheck(tool, record.doctor.shellLabel, ctx.base, { env, source: `the plugin's shell.env` }, ctx.git),
  );
  return checks;
}

/** `<tool>.file`: each file the tool owns besides the shared guard (e.g. Cline's plugin) is ours, current and
 * unedited. */
function ownedFileChecks(ctx: Ctx, tool: ToolName, record: ToolRecord): Check[] {
  const owned = record.intents.flatMap((i) => (i.kind === 'owned' && i.path !== GUARD_PATH ? [i] : []));
  return owned.map(({ path, asset }): Check => {
    const [text, id] = [ctx.read(path), `${tool}.file`];
    const header = text === null ? null : readOwnedHeader(text);
    if (text === null)
      return fail(id, `${path} is missing, so ${record.label} runs no loop guard`, `${RERUN} --tools ${tool}`);
    if (!header || header.version !== ctx.version)
      return fail(
        id,
        `${path} is ${header ? `v${header.version}` : 'not ours (no create-loop-guard header)'}; this ` +
          `create-loop-guard is v${ctx.version}`,
        header ? `${RERUN} to upgrade it` : `move it away, then ${RERUN}`,
      );
    if (text.replace(/\r\n/g, '\n') !== ctx.assets[asset])
      return fail(
        id,
        `${path} differs from the file v${ctx.version} ships (edited by hand?)`,
        `${RERUN} to replace it`,
      );
    return pass(id, `${path} is ours and current (v${ctx.version})`);
  });
}

/** The checks of one tool, from its record. */
export async function toolGroup(ctx: Ctx, tool: ToolName): Promise<Check[]> {
  const record = TOOLS[tool];
  const spec = record.intents.find((i): i is JsonIntent => i.kind === 'json');
  if (spec) return hookGroup(ctx, tool, record, spec);
  if (record.doctor.plugin) return pluginGroup(ctx, tool, record);
  const own = record.doctor.shellEnv;
  return [
    ...ownedFileChecks(ctx, tool, record),
    await gitEnvCheck(
      tool,
      record.doctor.shellLabel,
      ctx.base,
      { env: own && !own.forced ? own.env : {}, source: own && !own.forced ? own.source : 'no setting of ours' },
      ctx.git,
    ),
  ];
}
