#!/usr/bin/env node
// Installs the pinned real agent CLIs that test/agents drives: Claude Code, Codex, OpenCode, and
// Gemini CLI, Qwen Code, GitHub Copilot CLI, Cline, Kilo.
// Usage: node scripts/install-agents.mjs [--allow-missing] [--only claude,codex,opencode,gemini,qwen,copilot,cline,kilo]
// Target dir: $LOOP_GUARD_AGENTS_DIR, else <repo>/.cache/agents. Each CLI gets its own npm prefix
// (<dir>/<name>-<version>) so a pin change never reuses a stale tree.
// Always writes <dir>/status.json, which the tests read to find the binaries (or the reason one is missing).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The pins. Keep in step with test/agents (which reads them back from status.json). */
const AGENTS = [
  { name: 'claude', pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  { name: 'codex', pkg: '@openai/codex', version: '0.171.0', bin: 'codex' },
  { name: 'opencode', pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
  { name: 'gemini', pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  // Wants node >= 22 (EBADENGINE warning) but runs on 20.
  { name: 'qwen', pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
  { name: 'copilot', pkg: '@github/copilot', version: '1.0.102', bin: 'copilot' },
  { name: 'cline', pkg: 'cline', version: '3.0.65', bin: 'cline' },
  // 7.8.x's platform packages are missing from the registry; 7.7.7's exist.
  { name: 'kilo', pkg: '@kilocode/cli', version: '7.7.7', bin: 'kilo' },
];

/**
 * Where Copilot's SEA binary unpacks its ~235 MB JS tree on first start: inside its own install prefix,
 * so the version probe does it once and every test run reuses it (the tests set the same variable).
 */
function copilotPkgCache(prefix) {
  return join(prefix, 'node_modules', '.copilot-pkg-cache');
}

const INSTALL_TIMEOUT_MS = 15 * 60_000;
const VERSION_TIMEOUT_MS = 60_000;

/** Runs a command to completion, capturing output; never rejects. */
function run(cmd, args, opts = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n[install-agents] timed out after ${opts.timeoutMs ?? INSTALL_TIMEOUT_MS} ms`;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? INSTALL_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolvePromise({ code: -1, stdout, stderr: stderr + String(err) });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? (signal ? 128 : -1), stdout, stderr });
    });
  });
}

/** `<bin> --version` in a throwaway HOME so a version probe never writes into the real user's config. */
async function probeVersion(binPath, prefix) {
  if (!existsSync(binPath)) return { ok: false, output: `${binPath} does not exist` };
  const home = mkdtempSync(join(tmpdir(), 'lg-version-'));
  try {
    const env = {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      CODEX_HOME: join(home, '.codex'),
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local/share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, '.local/state'),
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      COPILOT_PKG_CACHE_HOME: copilotPkgCache(prefix),
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
      // Cline's default backend starts a hub daemon that outlives the process.
      CLINE_SESSION_BACKEND_MODE: 'local',
      KILO_NO_DAEMON: '1',
      KILO_DISABLE_AUTOUPDATE: '1',
      KILO_DISABLE_MODELS_FETCH: '1',
      KILO_TELEMETRY_LEVEL: 'off',
    };
    mkdirSync(env.CODEX_HOME, { recursive: true });
    const r = await run(binPath, ['--version'], { env, cwd: home, timeoutMs: VERSION_TIMEOUT_MS });
    // First stdout line only: Codex adds a harmless PATH-alias warning on stderr under /tmp.
    return { ok: r.code === 0, output: (r.stdout.trim().split('\n')[0] || r.stderr).trim() };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function lastLines(text, n) {
  // npm's JS stack frames say nothing about why an install failed; keep its own error lines.
  const lines = text
    .trim()
    .split('\n')
    .filter((l) => !/^\s*(npm error\s+)?at\s/.test(l));
  return lines.slice(-n).join('\n');
}

async function installOne(agent, baseDir) {
  const started = Date.now();
  const prefix = join(baseDir, `${agent.name}-${agent.version}`);
  const binPath = join(prefix, 'node_modules', '.bin', agent.bin);
  const result = { name: agent.name, pkg: agent.pkg, version: agent.version, prefix, bin: binPath };
  const seconds = () => Math.round((Date.now() - started) / 100) / 10;

  const before = await probeVersion(binPath, prefix);
  if (before.ok && before.output.includes(agent.version)) {
    return { ...result, ok: true, action: 'skipped', reported: before.output, seconds: seconds() };
  }

  mkdirSync(prefix, { recursive: true });
  const npmArgs = ['install', '--prefix', prefix, '--no-audit', '--no-fund', `${agent.pkg}@${agent.version}`];
  const npm = await run('npm', npmArgs, { env: process.env, cwd: prefix });
  if (npm.code !== 0) {
    return {
      ...result,
      ok: false,
      action: 'failed',
      seconds: seconds(),
      reason: `npm ${npmArgs.join(' ')} exited ${npm.code}:\n${lastLines(npm.stderr || npm.stdout, 25)}`,
    };
  }
  let after = await probeVersion(binPath, prefix);
  let postinstallNote = '';
  if (!after.ok) {
    // Some npm setups skip install scripts; both postinstalls only copy the binary out of the platform
    // package (no network), so running it by hand gives the same tree.
    const pkgDir = join(prefix, 'node_modules', ...agent.pkg.split('/'));
    const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    const script = manifest.scripts?.postinstall;
    if (script) {
      const post = await run('sh', ['-c', script], { env: process.env, cwd: pkgDir });
      postinstallNote = `; ran its postinstall by hand (exit ${post.code})`;
      if (post.code !== 0) postinstallNote += `:\n${lastLines(post.stderr || post.stdout, 15)}`;
      after = await probeVersion(binPath, prefix);
    }
  }
  if (!after.ok || !after.output.includes(agent.version)) {
    return {
      ...result,
      ok: false,
      action: 'failed',
      seconds: seconds(),
      reason: `installed, but \`${binPath} --version\` printed ${JSON.stringify(lastLines(after.output, 10))} (wanted ${agent.version})${postinstallNote}`,
    };
  }
  return {
    ...result,
    ok: true,
    action: postinstallNote ? 'installed*' : 'installed',
    reported: after.output,
    seconds: seconds(),
    note: postinstallNote,
  };
}

async function main() {
  const args = process.argv.slice(2);
  const allowMissing = args.includes('--allow-missing');
  const onlyIdx = args.indexOf('--only');
  const only = onlyIdx >= 0 ? (args[onlyIdx + 1] ?? '').split(',').filter(Boolean) : null;
  const unknown = args.filter(
    (a, i) => !['--allow-missing', '--only'].includes(a) && !(onlyIdx >= 0 && i === onlyIdx + 1),
  );
  if (unknown.length > 0) {
    console.error(`install-agents: unknown argument(s): ${unknown.join(' ')}`);
    process.exit(2);
  }
  const baseDir = resolve(process.env.LOOP_GUARD_AGENTS_DIR || join(repoRoot, '.cache', 'agents'));
  mkdirSync(baseDir, { recursive: true });
  const wanted = AGENTS.filter((a) => !only || only.includes(a.name));

  const t0 = Date.now();
  console.log(`install-agents: into ${baseDir}`);
  // In parallel: the work is download-bound, and three sequential ~250 MB fetches would triple the wall time.
  const results = await Promise.all(
    wanted.map(async (agent) => {
      const r = await installOne(agent, baseDir);
      if (r.ok) {
        console.log(
          `  ${r.name.padEnd(8)} ${r.action.padEnd(9)} ${r.pkg}@${r.version}  (${r.reported})  ${r.seconds}s`,
        );
      } else {
        console.error(
          `  ${r.name.padEnd(8)} FAILED    ${r.pkg}@${r.version}  ${r.seconds}s\n${r.reason.replace(/^/gm, '      ')}`,
        );
      }
      return r;
    }),
  );

  const statusPath = join(baseDir, 'status.json');
  // Agents left out by --only are probed as they are, so a partial run never hides an earlier install.
  const entries = await Promise.all(
    AGENTS.map(async (a) => {
      let r = results.find((x) => x.name === a.name);
      if (!r) {
        const prefix = join(baseDir, `${a.name}-${a.version}`);
        const bin = join(prefix, 'node_modules', '.bin', a.bin);
        const probe = await probeVersion(bin, prefix);
        const ok = probe.ok && probe.output.includes(a.version);
        r = {
          name: a.name,
          pkg: a.pkg,
          version: a.version,
          prefix,
          bin,
          ok,
          reported: ok ? probe.output : undefined,
          reason: ok ? undefined : 'not installed (left out by --only in the last run of scripts/install-agents.mjs)',
        };
      }
      return [
        a.name,
        {
          ok: r.ok,
          pkg: r.pkg,
          version: r.version,
          bin: r.bin,
          prefix: r.prefix,
          reported: r.reported ?? null,
          reason: r.reason ?? null,
        },
      ];
    }),
  );
  const status = { writtenAt: new Date().toISOString(), agents: Object.fromEntries(entries) };
  writeFileSync(statusPath, JSON.stringify(status, null, 2) + '\n');
  const failed = results.filter((r) => !r.ok);
  console.log(
    `install-agents: ${results.length - failed.length}/${results.length} ready in ${Math.round((Date.now() - t0) / 1000)}s; status in ${statusPath}`,
  );
  if (failed.length > 0) {
    const names = failed.map((r) => r.name).join(', ');
    if (allowMissing) {
      console.error(
        `install-agents: WARNING: ${names} missing (--allow-missing): their agent tests will FAIL with the reason above.`,
      );
    } else {
      console.error(`install-agents: ERROR: ${names} could not be installed.`);
      process.exit(1);
    }
  }
}

await main();
