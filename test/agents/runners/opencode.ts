// The OpenCode runner: headless, offline (model = the mock on 127.0.0.1), isolated HOME, explicit env, hard timeout.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  agentStatus,
  agentsDir,
  baseEnv,
  describeRun,
  finish,
  jsonLines,
  makeHome,
  removeDir,
  runProcess,
  type AgentRun,
  type RunOptions,
  runAgentCli,
} from './common.ts';
import { promptFor, startMockServer, type MockModelServer } from '../mock-server.ts';

/** The mock provider, handed to OpenCode through OPENCODE_CONFIG_CONTENT so the project's files stay the scaffolder's. */
export function openCodeConfig(server: MockModelServer): Record<string, unknown> {
  return {
    model: 'mock/mock-model',
    small_model: 'mock/mock-model',
    autoupdate: false,
    share: 'disabled',
    // No per-step git snapshots of the project: undo support the test never uses, about a second per step here.
    snapshot: false,
    permission: { bash: 'allow', edit: 'allow', webfetch: 'allow', external_directory: 'allow' },
    provider: {
      mock: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Mock',
        options: { baseURL: `${server.baseUrl}/v1`, apiKey: 'dummy' },
        models: { 'mock-model': { name: 'Mock Model', tool_call: true, limit: { context: 100_000, output: 4_096 } } },
      },
    },
  };
}

function openCodeEnv(home: string, server: MockModelServer, opts: RunOptions = {}): Record<string, string> {
  return {
    ...baseEnv(home, opts),
    OPENCODE_CONFIG_CONTENT: JSON.stringify(openCodeConfig(server)),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  };
}

/** What OpenCode installs at its first start when a project has a `.opencode/` dir (about +10 s per cold run). */
const OPENCODE_PROJECT_DEPS = ['package.json', 'package-lock.json', '.gitignore', 'node_modules'];

/**
 * A warmed copy of the two dirs OpenCode fills with `npm install @opencode-ai/plugin` on first start:
 * `$XDG_CONFIG_HOME/opencode` and `<project>/.opencode`. Made once by a throwaway run and kept in the
 * agents cache (keyed by OpenCode's version, since the plugin package is pinned to it).
 * Returns null if warming failed: runs then stay correct, only slower.
 */
export async function openCodeWarmTemplate(): Promise<{ configDir: string; projectDir: string } | null> {
  const status = agentStatus('opencode');
  if (!status.ok) return null;
  const template = join(agentsDir, `opencode-${status.version}-warm`);
  const result = { configDir: join(template, 'config'), projectDir: join(template, 'project') };
  if (existsSync(join(template, 'ready'))) return result;

  const server = await startMockServer({ turns: [{ commands: [], finalText: 'warm' }] });
  const home = makeHome('opencode');
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'lg-opencode-warm-')));
  try {
    mkdirSync(join(project, '.opencode', 'plugins'), { recursive: true });
    // Any local plugin makes OpenCode install its plugin SDK into both config dirs.
    writeFileSync(join(project, '.opencode', 'plugins', 'warmup.js'), 'export const Warmup = async () => ({});\n');
    await runProcess('git', ['init', '-q'], { cwd: project, env: baseEnv(home), timeoutMs: 30_000 });
    const run = await runOpenCode(project, server, { home, seed: false });
    const sdk = (dir: string) => join(dir, 'node_modules', '@opencode-ai', 'plugin', 'package.json');
    if (
      run.exitCode !== 0 ||
      !existsSync(sdk(join(home, '.config', 'opencode'))) ||
      !existsSync(sdk(join(project, '.opencode')))
    ) {
      console.warn(
        `[agents] OpenCode warm-up did not produce its plugin SDK; OpenCode runs will be slower.\n${describeRun(run, server)}`,
      );
      return null;
    }
    // Built in a temp dir and renamed into place, so an interrupted warm-up never leaves a half template.
    const staging = `${template}.tmp-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    cpSync(join(home, '.config', 'opencode'), join(staging, 'config'), { recursive: true, verbatimSymlinks: true });
    for (const f of OPENCODE_PROJECT_DEPS) {
      const src = join(project, '.opencode', f);
      if (existsSync(src)) cpSync(src, join(staging, 'project', f), { recursive: true, verbatimSymlinks: true });
    }
    writeFileSync(join(staging, 'ready'), `${new Date().toISOString()}\n`);
    rmSync(template, { recursive: true, force: true });
    renameSync(staging, template);
    return result;
  } finally {
    await server.close();
    removeDir(home);
    removeDir(project);
  }
}

/**
 * Puts a warmed dependency dir in place: small files copied, node_modules symlinked to the template
 * (thousands of files: copying and deleting them per run cost more than the install it saves).
 */
export function seedDeps(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(from)) {
    const dest = join(to, f);
    if (existsSync(dest)) continue;
    if (f === 'node_modules') symlinkSync(join(from, f), dest, 'dir');
    else cpSync(join(from, f), dest, { recursive: true, verbatimSymlinks: true });
  }
}

export async function runOpenCode(
  projectDir: string,
  server: MockModelServer,
  opts: RunOptions & { seed?: boolean } = {},
): Promise<AgentRun> {
  const fresh = !opts.home;
  const home = opts.home ?? makeHome('opencode');
  if (opts.seed !== false) {
    const warm = await openCodeWarmTemplate();
    if (warm && fresh) seedDeps(warm.configDir, join(home, '.config', 'opencode'));
    // Only where the scaffolder left no .opencode/package.json of its own: never overwrite project files.
    if (
      warm &&
      existsSync(join(projectDir, '.opencode')) &&
      !existsSync(join(projectDir, '.opencode', 'package.json'))
    ) {
      seedDeps(warm.projectDir, join(projectDir, '.opencode'));
    }
  }
  const args = [
    'run',
    '--print-logs',
    '--format',
    'json',
    ...(opts.resumeSession ? ['--session', opts.resumeSession] : []),
    promptFor(opts.turn ?? 1),
  ];
  const r = await runAgentCli('opencode', projectDir, args, openCodeEnv(home, server, opts), opts);
  let sessionId: string | null = opts.resumeSession ?? null;
  for (const ev of jsonLines(r.stdout)) {
    const e = ev as { sessionID?: unknown; part?: { sessionID?: unknown } };
    const id = e.sessionID ?? e.part?.sessionID;
    if (!sessionId && typeof id === 'string') sessionId = id;
  }
  return finish('opencode', home, r, sessionId);
}
