// What `create-loop-guard run` needs to drive a real CLI against the scripted model: the environment (isolated HOME,
// the mock as the provider) and the user's own flags after `--` (permissions, sandbox). The same setup as the
// runners in runners/<tool>.ts (Claude Code's, Kilo's and Copilot CLI's env and config come from them), without
// running the CLI: `run` does that.
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { MockModelServer } from './mock-server.ts';
import {
  baseEnv,
  CLINE_SLOW_HOST,
  claudeEnv,
  copilotEnv,
  kiloEnv,
  makeHome,
  mergeJson,
  openCodeConfig,
  openCodeWarmTemplate,
  requireBin,
  runProcess,
  seedClaudeHome,
  seedDeps,
  trustCopilotFolder,
} from './runners/index.ts';

export type RunAgentName = 'claude' | 'codex' | 'opencode' | 'gemini' | 'qwen' | 'copilot' | 'cline' | 'kilo';
export const RUN_SUITE_AGENTS: RunAgentName[] = [
  'claude',
  'codex',
  'opencode',
  'gemini',
  'qwen',
  'copilot',
  'cline',
  'kilo',
];

/** The scripted model's second name: what rung 3 runs where the tool has no default smaller model (the table's). */
export const MOCK_SMALL = 'mock-small';

export interface RunSetup {
  env: Record<string, string>;
  extra: string[];
  home: string;
  /** `smaller-model` lines the test's recovery table adds (tools whose models are the user's provider pairs). */
  tableLines: string[];
  /** The model rung 3 must run, as the scripted model sees it (the request body's or the URL's model). */
  smaller: string;
}

type Setup = Omit<RunSetup, 'home'>;
type SetupFn = (home: string, path: string, repo: string, server: MockModelServer) => Setup | Promise<Setup>;

function claudeSetup(home: string, path: string, _repo: string, server: MockModelServer): Setup {
  seedClaudeHome(home);
  return {
    smaller: 'claude-haiku-4-5',
    tableLines: [],
    env: { ...claudeEnv(home, server), PATH: path },
    extra: ['--allowedTools', 'Bash', '--model', 'claude-sonnet-4-5'],
  };
}

function codexSetup(home: string, path: string, repo: string, server: MockModelServer): Setup {
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "mock-model"',
      'model_provider = "mock"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      '',
      '[model_providers.mock]',
      'name = "Mock"',
      `base_url = ${JSON.stringify(`${server.baseUrl}/v1`)}`,
      'env_key = "MOCK_API_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      `[projects.${JSON.stringify(realpathSync(repo))}]`,
      'trust_level = "trusted"',
      '',
    ].join('\n'),
  );
  return {
    smaller: 'gpt-5-mini',
    tableLines: [],
    env: { ...baseEnv(home), PATH: path, CODEX_HOME: codexHome, MOCK_API_KEY: 'dummy' },
    // -c model=…: the same model as config.toml, named in the argv so `run` can price it.
    extra: [
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '--dangerously-bypass-hook-trust',
      '-c',
      'model="mock-model"',
    ],
  };
}

/** OpenCode's mock provider (runners/opencode.ts) with a second model, the table's smaller one. */
function openCodeLikeConfig(server: MockModelServer): Record<string, unknown> {
  const config = openCodeConfig(server) as { provider: { mock: { models: Record<string, unknown> } } };
  const models = config.provider.mock.models;
  return {
    ...config,
    provider: { mock: { ...config.provider.mock, models: { ...models, [MOCK_SMALL]: models['mock-model'] } } },
  };
}

async function openCodeSetup(home: string, path: string, repo: string, server: MockModelServer): Promise<Setup> {
  // The plugin SDK OpenCode installs at its first start, from the warmed template (runners/opencode.ts).
  const warm = await openCodeWarmTemplate();
  if (warm) {
    seedDeps(warm.configDir, join(home, '.config', 'opencode'));
    if (existsSync(join(repo, '.opencode')) && !existsSync(join(repo, '.opencode', 'package.json')))
      seedDeps(warm.projectDir, join(repo, '.opencode'));
  }
  return {
    smaller: MOCK_SMALL,
    tableLines: [`smaller-model  opencode  mock/${MOCK_SMALL}`],
    env: {
      ...baseEnv(home),
      PATH: path,
      OPENCODE_CONFIG_CONTENT: JSON.stringify(openCodeLikeConfig(server)),
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    },
    extra: ['--model', 'mock/mock-model'],
  };
}

function kiloSetup(home: string, path: string, _repo: string, server: MockModelServer): Setup {
  return {
    smaller: MOCK_SMALL,
    tableLines: [`smaller-model  kilo      mock/${MOCK_SMALL}`],
    env: { ...kiloEnv(home, server, {}, openCodeLikeConfig(server)), PATH: path },
    extra: ['--auto', '--model', 'mock/mock-model'],
  };
}

function geminiSetup(home: string, path: string, repo: string, server: MockModelServer): Setup {
  mergeJson(join(home, '.gemini', 'settings.json'), {
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    // GOOGLE_GEMINI_BASE_URL alone selects auth type "gateway", which -p rejects (exit 41); this keeps the URL.
    security: { auth: { selectedType: 'gemini-api-key' } },
  });
  // Folder trust is on by default: an untrusted folder exits 55 (runners/gemini.ts).
  mergeJson(join(home, '.gemini', 'trustedFolders.json'), { [realpathSync(repo)]: 'TRUST_FOLDER' });
  return {
    smaller: 'gemini-2.5-flash',
    tableLines: [],
    env: { ...baseEnv(home), PATH: path, GOOGLE_GEMINI_BASE_URL: server.baseUrl, GEMINI_API_KEY: 'dummy' },
    // --yolo: without it headless mode offers only read-only tools (no run_shell_command).
    extra: ['--yolo', '-m', 'gemini-2.5-pro'],
  };
}

function qwenSetup(home: string, path: string, _repo: string, server: MockModelServer): Setup {
  mergeJson(join(home, '.qwen', 'settings.json'), {
    general: { enableAutoUpdate: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    memory: { enableManagedAutoMemory: false },
  });
  return {
    smaller: 'qwen3-coder-flash',
    tableLines: [],
    env: {
      ...baseEnv(home),
      PATH: path,
      OPENAI_BASE_URL: `${server.baseUrl}/v1`,
      OPENAI_API_KEY: 'dummy',
      OPENAI_MODEL: 'mock-model',
      QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    },
    extra: ['--yolo'],
  };
}

function copilotSetup(home: string, path: string, repo: string, server: MockModelServer): Setup {
  trustCopilotFolder(home, repo);
  return {
    smaller: MOCK_SMALL,
    tableLines: [`smaller-model  copilot   ${MOCK_SMALL}`],
    env: { ...copilotEnv(home, server), PATH: path },
    extra: ['--allow-all', '--no-auto-update', '--log-dir', join(home, 'copilot-logs')],
  };
}

async function clineSetup(home: string, path: string, _repo: string, server: MockModelServer): Promise<Setup> {
  // local: the default backend starts a hub daemon that outlives the run (runners/cline.ts).
  const env = { ...baseEnv(home), PATH: path, CLINE_SESSION_BACKEND_MODE: 'local', ...CLINE_SLOW_HOST };
  // The provider is set the way a user does it: `cline auth` (a hand-written providers.json is ignored).
  const auth = await runProcess(
    requireBin('cline'),
    ['auth', '-p', 'openai', '-k', 'dummy', '-m', 'mock-model', '-b', `${server.baseUrl}/v1`],
    { cwd: home, env, timeoutMs: 60_000 },
  );
  if (auth.exitCode !== 0) throw new Error(`cline auth failed\n${auth.stdout}\n${auth.stderr}`);
  return { smaller: MOCK_SMALL, tableLines: [`smaller-model  cline     ${MOCK_SMALL}`], env, extra: [] };
}

const SETUPS: Record<RunAgentName, SetupFn> = {
  claude: claudeSetup,
  codex: codexSetup,
  opencode: openCodeSetup,
  gemini: geminiSetup,
  qwen: qwenSetup,
  copilot: copilotSetup,
  cline: clineSetup,
  kilo: kiloSetup,
};

export async function runSetup(agent: RunAgentName, repo: string, server: MockModelServer): Promise<RunSetup> {
  const home = makeHome(agent);
  // `run` finds the agent on PATH, as a user's shell would.
  const path = `${dirname(requireBin(agent))}:${process.env.PATH ?? '/usr/bin:/bin'}`;
  return { home, ...(await SETUPS[agent](home, path, repo, server)) };
}
