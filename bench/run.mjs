// Benchmark: what `create-loop-guard run` costs on top of the agent it drives, as a wall-clock ratio in one run
// (printed, never asserted). The agent is test/run/fixtures/fake-agent.mjs on PATH as `claude`, streaming 50 lines of
// Claude Code stream-json over about a second; the verifier is `true`, so the run is one rung.
//   run ÷ (the same agent run directly + the verifier run directly)
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'cli.mjs');
const work = mkdtempSync(join(tmpdir(), 'lg-bench-run-'));
const repo = join(work, 'repo');
const bin = join(work, 'bin');
mkdirSync(join(repo, '.git'), { recursive: true });
mkdirSync(bin);
copyFileSync(join(root, 'test/run/fixtures/fake-agent.mjs'), join(bin, 'claude'));
const lines = Array.from({ length: 50 }, (_, i) => ({
  type: 'assistant',
  message: { id: `m${i}`, model: 'claude-sonnet-4-5', usage: { input_tokens: 1000, output_tokens: 100 } },
}));
lines.push({
  type: 'result',
  subtype: 'success',
  session_id: 's',
  result: 'done',
  usage: { input_tokens: 50000, output_tokens: 5000 },
});
writeFileSync(join(work, 'script.json'), JSON.stringify({ runs: [{ lines, delayMs: 20 }] }));
const env = {
  PATH: `${bin}:${process.env.PATH}`,
  HOME: work,
  FAKE_AGENT_LOG: join(work, 'agent.jsonl'),
  FAKE_AGENT_SCRIPT: join(work, 'script.json'),
};
const time = (cmd, args) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd: repo, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}\n${r.stdout}${r.stderr}`);
  return ms;
};
try {
  const agent = time(join(bin, 'claude'), ['-p', 'T', '--output-format', 'stream-json', '--verbose']);
  const verify = time('sh', ['-c', 'true']);
  const run = time(process.execPath, [cli, 'run', '--agent', 'claude', '--task', 'T', '--verify', 'true']);
  const direct = agent + verify;
  console.log(`agent alone ${agent.toFixed(0)} ms + verifier ${verify.toFixed(0)} ms = ${direct.toFixed(0)} ms`);
  console.log(`run (one rung, the same agent and verifier) ${run.toFixed(0)} ms`);
  console.log(`ratio run ÷ direct: ${(run / direct).toFixed(2)}× (overhead ${(run - direct).toFixed(0)} ms)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
