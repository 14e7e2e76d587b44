// Every hook we installed, found in a clone the way each tool finds it, run the way the tool runs it: the command
// through `sh -c` with a real captured payload on stdin, the plugins imported and called with a real hook argument.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { guardEnv, type Json, loadPayload, nodeBin, payloadsDir } from '../helpers/guard.ts';
import { fixturesDir } from '../helpers/paths.ts';

export interface InstalledHook {
  /** e.g. `.claude/settings.json PreToolUse`. */
  label: string;
  /** The config or plugin file, and the command it runs: hooks that run the same command fail the same way. */
  file: string;
  command: string;
  /** The folder the tool treats as the project (where its config folder is). */
  project: string;
  run: (env: Record<string, string>) => Promise<HookAnswer>;
}

export interface HookAnswer {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Command-hook configs: where each tool keeps them and which captured payloads it sends. */
const COMMAND_CONFIGS: { file: RegExp; payloads: string }[] = [
  { file: /(^|\/)\.claude\/settings\.json$/, payloads: join(payloadsDir, 'claude') },
  { file: /(^|\/)\.codex\/hooks\.json$/, payloads: join(payloadsDir, 'codex') },
  { file: /(^|\/)\.cursor\/hooks\.json$/, payloads: join(fixturesDir, 'cursor') },
  { file: /(^|\/)\.gemini\/settings\.json$/, payloads: join(payloadsDir, 'gemini') },
  { file: /(^|\/)\.qwen\/settings\.json$/, payloads: join(payloadsDir, 'qwen') },
  { file: /(^|\/)\.github\/hooks\/[^/]+\.json$/, payloads: join(payloadsDir, 'copilot', 'pascal') },
];

/** A real payload for an event: `<Event>-success.json`, else the first `<Event>…json` captured. */
function payloadFor(dir: string, event: string): Json | null {
  const names = readdirSync(dir).filter((n) => n === `${event}.json` || n.startsWith(`${event}-`));
  const name = names.find((n) => n.includes('success')) ?? names.sort()[0];
  return name ? (JSON.parse(readFileSync(join(dir, name), 'utf8')) as Json) : null;
}

function sh(command: string, cwd: string, input: string, env: Record<string, string>): Promise<HookAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.stdin.on('error', () => {}); // a hook that exits without reading its stdin
    child.stdin.end(input);
  });
}

function files(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === '.git' || name === 'node_modules') continue;
      const abs = join(d, name);
      const st = statSync(abs, { throwIfNoEntry: false });
      if (!st) continue; // a dangling link
      if (st.isDirectory()) walk(abs);
      else out.push(relative(dir, abs));
    }
  };
  walk(dir);
  return out;
}

type Entry = { command?: string; hooks?: { command?: string }[] };

/** Our command hooks (the ones that name the loop guard) in every tool config of the clone. */
function commandHooks(clone: string): InstalledHook[] {
  const out: InstalledHook[] = [];
  for (const rel of files(clone)) {
    const cfg = COMMAND_CONFIGS.find((c) => c.file.test(rel));
    if (!cfg) continue;
    let doc: { hooks?: Record<string, Entry[]> };
    try {
      doc = JSON.parse(readFileSync(join(clone, rel), 'utf8'));
    } catch {
      continue; // JSONC of the user's; ours are plain JSON
    }
    // The project is the folder above the tool's config folder (`.github/hooks/x.json` → two levels up).
    const project = join(
      clone,
      rel.includes('.github/hooks/') ? dirname(dirname(dirname(rel))) : dirname(dirname(rel)),
    );
    for (const [event, entries] of Object.entries(doc.hooks ?? {})) {
      if (!Array.isArray(entries)) continue;
      const commands = entries.flatMap((e) => [e.command, ...(e.hooks ?? []).map((h) => h.command)]);
      for (const command of commands) {
        if (typeof command !== 'string' || !command.includes('loop-guard')) continue;
        const payload = payloadFor(cfg.payloads, event);
        if (!payload) throw new Error(`no captured payload for ${rel} ${event}`);
        const input = JSON.stringify({ ...payload, cwd: project });
        out.push({
          label: `${rel} ${event}`,
          file: rel,
          command,
          project,
          run: (env) => sh(command, project, input, env),
        });
      }
    }
  }
  return out;
}

/** Our plugins: imported by a fresh node as the tool imports them, then one real hook argument through each hook. */
function pluginHooks(clone: string, scratch: string): InstalledHook[] {
  const out: InstalledHook[] = [];
  for (const rel of files(clone)) {
    const m = /(^|\/)\.(opencode|kilo|cline)\/plugins\/loop-guard\.js$/.exec(rel);
    if (!m) continue;
    const project = join(clone, dirname(dirname(dirname(rel))) || '.');
    const tool = m[2] as 'opencode' | 'kilo' | 'cline';
    const calls =
      tool === 'cline'
        ? [{ hook: 'beforeTool', args: [loadPayload('cline/plugin/beforeTool-success.json')] }]
        : ['tool.execute.before-success.json', 'tool.execute.after-success.json'].map((n) => {
            const p = loadPayload(`${tool}/${n}`) as { input: Json; output: Json };
            return {
              hook: n.startsWith('tool.execute.before') ? 'tool.execute.before' : 'tool.execute.after',
              args: [p.input, p.output],
            };
          });
    const init =
      tool === 'cline'
        ? {}
        : loadPayload(tool === 'kilo' ? 'kilo/plugin-init.json' : 'opencode/plugin-init-context.json');
    const script = join(scratch, `run-${tool}-plugin.mjs`);
    writeFileSync(
      script,
      [
        "import { pathToFileURL } from 'node:url';",
        "import Module from 'node:module';",
        "import { readFileSync } from 'node:fs';",
        "import { dirname } from 'node:path';",
        'const [file, callsJson, initJson, project] = process.argv.slice(2);',
        // Cline loads its plugins with jiti, which runs a CommonJS file as CommonJS even in a "type": "module" package.
        tool === 'cline'
          ? 'const m = new Module(file); m.filename = file; m.paths = Module._nodeModulePaths(dirname(file)); m._compile(readFileSync(file, "utf8"), file); const mod = m.exports;'
          : 'const mod = await import(pathToFileURL(file).href);',
        'const calls = JSON.parse(callsJson);',
        `let hooks;`,
        tool === 'cline'
          ? 'hooks = (mod.default ?? mod).hooks ?? {};'
          : 'const start = Object.values(mod).find((v) => typeof v === "function"); hooks = await start({ ...JSON.parse(initJson), directory: project, worktree: project, client: { session: { abort: async () => ({}) } } });',
        'for (const c of calls) { const answer = await hooks[c.hook]?.(...c.args); if (answer !== undefined) process.stdout.write(JSON.stringify(answer)); }',
      ].join('\n'),
    );
    out.push({
      label: `${rel} ${calls.map((c) => c.hook).join(', ')}`,
      file: rel,
      command: rel,
      project,
      run: (env) =>
        new Promise((resolve, reject) => {
          // OpenCode and Kilo run on Bun, which loads an ES-module .js without the warning Node prints for it.
          const flags = ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON'];
          const child = spawn(
            nodeBin,
            [...flags, script, join(clone, rel), JSON.stringify(calls), JSON.stringify(init), project],
            {
              cwd: project,
              env,
              stdio: ['ignore', 'pipe', 'pipe'],
            },
          );
          let stdout = '';
          let stderr = '';
          child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
          child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
          child.on('error', reject);
          child.on('close', (status) => resolve({ status, stdout, stderr }));
        }),
    });
  }
  return out;
}

export function installedHooks(clone: string, scratch: string): InstalledHook[] {
  return [...commandHooks(clone), ...pluginHooks(clone, scratch)];
}

/** The environment a tool gives its hooks: the project folder in each tool's variable, a private state dir. */
export function hookEnv(hook: InstalledHook, state: string, home: string): Record<string, string> {
  return guardEnv(state, {
    HOME: home,
    CLAUDE_PROJECT_DIR: hook.project,
    GEMINI_PROJECT_DIR: hook.project,
    QWEN_PROJECT_DIR: hook.project,
  });
}

/** Deletes the guard files from a clone (every `.agents/hooks/loop-guard*`), as a clone without them would be. */
export function deleteGuardFiles(clone: string): string[] {
  const gone: string[] = [];
  for (const rel of files(clone)) {
    if (!/(^|\/)\.agents\/hooks\/loop-guard[^/]*$/.test(rel)) continue;
    rmSync(join(clone, rel));
    gone.push(rel);
  }
  return gone;
}
