// The real-agent runners, one file per tool, and `runAgent`, which picks one by name.
import type { AgentName, AgentRun, RunOptions } from './common.ts';
import type { MockModelServer } from '../mock-server.ts';
import { runClaude } from './claude.ts';
import { runCline } from './cline.ts';
import { runCodex } from './codex.ts';
import { runCopilot } from './copilot.ts';
import { runGemini } from './gemini.ts';
import { runKilo } from './kilo.ts';
import { runOpenCode } from './opencode.ts';
import { runQwen } from './qwen.ts';

export * from './common.ts';
export { runClaude, runCline, runCodex, runCopilot, runGemini, runKilo, runOpenCode, runQwen };
export { CLINE_SLOW_HOST } from './cline.ts';
export { claudeEnv, seedClaudeHome } from './claude.ts';
export { copilotEnv, trustCopilotFolder } from './copilot.ts';
export { kiloConfig, kiloEnv } from './kilo.ts';
export { openCodeConfig, openCodeWarmTemplate, seedDeps } from './opencode.ts';
export { runClineAcp } from './cline-acp.ts';

const RUNNERS: Record<
  AgentName,
  (projectDir: string, server: MockModelServer, opts?: RunOptions) => Promise<AgentRun>
> = {
  claude: runClaude,
  codex: runCodex,
  opencode: runOpenCode,
  gemini: runGemini,
  copilot: runCopilot,
  qwen: runQwen,
  cline: runCline,
  kilo: runKilo,
};

export function runAgent(
  agent: AgentName,
  projectDir: string,
  server: MockModelServer,
  opts: RunOptions = {},
): Promise<AgentRun> {
  return RUNNERS[agent](projectDir, server, opts);
}
