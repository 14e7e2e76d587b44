// The agent tools we support, by name: the one list, shared by the scaffolder, doctor and the guard.

export type ToolName = 'claude' | 'codex' | 'cursor' | 'opencode' | 'gemini' | 'copilot' | 'qwen' | 'cline' | 'kilo';
export const TOOL_NAMES: readonly ToolName[] = [
  'claude',
  'codex',
  'cursor',
  'opencode',
  'gemini',
  'copilot',
  'qwen',
  'cline',
  'kilo',
];
