import { claude } from './claude.ts';
import { cline } from './cline.ts';
import { codex } from './codex.ts';
import { copilot } from './copilot.ts';
import { cursor } from './cursor.ts';
import { gemini } from './gemini.ts';
import { kilo } from './kilo.ts';
import { opencode } from './opencode.ts';
import { qwen } from './qwen.ts';
import type { ToolName, ToolRecord } from './types.ts';

export const TOOLS: Readonly<Record<ToolName, ToolRecord>> = {
  claude,
  codex,
  cursor,
  opencode,
  gemini,
  copilot,
  qwen,
  cline,
  kilo,
};
export * from './types.ts';
