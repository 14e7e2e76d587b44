// Types for bench/judgment-score.mjs, so test/guard/judgment.test.ts can import the same scorer the bench runs.
export interface Step {
  kind: string;
  command?: string;
  file?: string;
  attempt?: number;
  events: Array<Record<string, unknown>>;
}
export interface Sequence {
  id: string;
  tool: 'claude' | 'codex' | 'cursor' | 'opencode';
  label: 'work' | 'loop';
  class: string;
  expect?: { warnBy: number; refuseBy: number } | { note: number };
  justification?: string;
  issue?: string;
  title: string;
  steps: Step[];
}
export interface Flag {
  step: number;
  attempt: number;
  kind: 'warn' | 'refuse';
  text: string;
}
export interface Impl {
  runHook(stdin: string, toolArg: string | undefined, env: Record<string, string | undefined>): string;
  LoopGuard(ctx?: unknown): Promise<Record<string, unknown>>;
}
export interface ClassScore {
  name: string;
  label: 'work' | 'loop';
  n: number;
  refused: number;
  warned: number;
  justified: number;
  noteOk: number;
  notes: number;
  warnedInTime: number;
  refusedInTime: number;
  failing: Array<{ id: string; reasons: string[] }>;
}
export interface Overall {
  sequences: number;
  work: number;
  loops: number;
  workRefused: number;
  workWarned: number;
  workWarnedUnjustified: number;
  notes: number;
  noteOk: number;
  loopsWarnedInTime: number;
  loopsRefusedInTime: number;
  workWarnShare: number;
  loopsWarnedShare: number;
  loopsRefusedShare: number;
  goals: {
    workRefusals: boolean;
    workWarnings: boolean;
    loopsRefused: boolean;
    loopsWarned: boolean;
    thrashNote: boolean;
  };
}
export interface Score {
  classes: ClassScore[];
  overall: Overall;
  results: Array<{ seq: Sequence; flags: Flag[]; verdict: { ok: boolean; reasons: string[] } }>;
}
export const CORPUS_DIR: string;
export const GOALS: { workRefusals: number; workWarnShare: number; loopsRefused: number; loopsWarned: number };
export function loadCorpus(dir?: string): Sequence[];
export function readHookAnswer(stdout: string, eventName: string): { deny: boolean; warn: string | null };
export function replaySequence(seq: Sequence, impl: Impl, stateRoot: string): Promise<Flag[]>;
export function judge(seq: Sequence, flags: Flag[]): { ok: boolean; reasons: string[] } & Record<string, unknown>;
export function scoreCorpus(impl: Impl, opts?: { dir?: string; filter?: (s: Sequence) => boolean }): Promise<Score>;
export function formatReport(score: Pick<Score, 'classes' | 'overall'>, opts?: { failing?: boolean }): string;
