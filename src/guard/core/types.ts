// Shared shapes of the guard: what adapters turn payloads into, and what the core answers.

/** The agent tools whose hook protocol the guard speaks (one list, in tools/names.ts). */
export type { ToolName } from '../../tools/names.ts';

/** What the guard core needs to know about the calling tool; each adapter supplies its own. Never changed once made:
 * the core keeps answers per facts object it was given. */
export interface GuardToolFacts {
  /** The tool hands control back from a long-running command by itself (Codex), so the guard does not refuse those. */
  readonly longRunsReturn: boolean;
  /** The tool's own way to run a command in the background, named in the advice (Claude's run_in_background). */
  readonly backgroundOption?: string | undefined;
  /** A block message says "This command" instead of quoting it (Codex shows the command beside the reason). */
  readonly blockSaysThisCommand: boolean;
  /** Variables the tool sets for every command it runs, read as if the line set them (Claude Code: GIT_EDITOR=true). */
  readonly shellEnv?: Readonly<Record<string, string>> | undefined;
}

/** One thing that happened in an agent session, in tool-neutral form. */
export type GuardEvent =
  | {
      kind: 'pre';
      command: string;
      /** Set when the call runs in the background or the tool hands control back from long commands. */
      background: boolean;
      /** Dedupe key for deliveries of the same call (tool_use_id / callID), if the tool gives one. */
      callId?: string;
      /** Per-user-message id (Codex turn_id, Cursor generation_id); a new one is a new user turn. */
      turnId?: string;
    }
  | {
      kind: 'post';
      command: string;
      /** The output as the model sees it (stdout+stderr, or the tool's combined text). */
      output: string;
      /** The exit code where the tool reports one; undefined where it does not (Codex). */
      exitCode?: number;
      callId?: string;
      turnId?: string;
    }
  /** The workspace changed through a non-shell tool: an edit/write/patch tool, or a sub-agent that finished. */
  /** `by`: an edit (counts toward "the same failure across edits") or a sub-agent or background task that ended
   * (counts only as change). */
  | { kind: 'change'; by: 'edit' | 'agent'; callId?: string; turnId?: string }
  /** `prompt`: the user's text where the tool gives it; only hashes of its command-like spans are kept (asked.ts). */
  | { kind: 'userTurn'; turnId?: string; prompt?: string }
  /**
   * The tool is about to go on: run a permitted command (Copilot's PermissionRequest, with the command) or send the
   * next model request in the same turn (Qwen's UserPromptSubmit continuation, without). Where a tool can stop a run
   * only there, this is when a hand-off given earlier in the turn takes effect.
   */
  | { kind: 'proceed'; command?: string; turnId?: string }
  /** A session starts (Claude Code, Codex, Gemini CLI, Qwen Code SessionStart): the loop's hand-off note, if any, is
   * shown. */
  | { kind: 'start' };

/** Failures that the same command cannot fix by being run again. */
export type FailureClass =
  | 'auth'
  | 'network'
  | 'command-not-found'
  | 'missing-file'
  | 'crlf'
  | 'deps-missing'
  | 'missing-script';

/** What the guard wants the tool to do. */
export type Decision =
  | { action: 'allow' }
  /** Allow, and add this text to the model's context next to the result. */
  | { action: 'warn'; message: string }
  /** Do not run the command; tell the model this reason. */
  | { action: 'deny'; message: string; rule: string }
  /** Do not run the command, and stop the agent's turn (the ladder's last rung); the note says why. */
  | { action: 'handoff'; message: string; rule: string; stopReason: string; note: HandoffNote; again?: true };

/** The ladder's per-turn memory, kept in the session state (bounded: see ladder.ts LADDER_LIMITS). */
export interface LadderState {
  /** refused attempts in this turn */
  n: number;
  /** refused attempts per command key, with the command as shown */
  refused: Record<string, { c: string; n: number }>;
  /** the last lines of the normalized result of the most recent commands, newest last: [command key, text] */
  tails: Array<[string, string]>;
  /** the command key whose refusal became the hand-off in this turn, for tools that stop at a later event
   * ('proceed') */
  h?: string;
}

/** What a hand-off leaves behind for the next session (rendered into .agents/handoff.md and .json). */
export interface HandoffNote {
  /** the command whose refusal ended the turn, as the agent wrote it */
  command: string;
  /** every command refused in this turn: how often it was refused and what its last identical results said */
  refused: Array<{ command: string; refusals: number; results: number; failure?: FailureClass; lastLines: string }>;
  /** the other commands run in this turn, with their last results */
  tried: Array<{ command: string; results: number; failure?: FailureClass; lastLines: string }>;
}

/** Settings read from the environment (LOOP_GUARD_*). */
export interface GuardSettings {
  enabled: boolean;
  /** Warn on this many identical results in a row (default 3). */
  warn: number;
  /** After this many identical results, refuse the next attempt (default 4). */
  block: number;
  /** Refuse commands that wait for a person (default on; LOOP_GUARD_HANG=off turns it off). */
  hangGuard: boolean;
  /** Hand off (stop the turn) after this many refused attempts in one turn; 0 = never (default 2,
   * LOOP_GUARD_HANDOFF). */
  handoff?: number;
}

/** A hang-guard verdict: why the command would wait for a person, and what to run instead. */
export interface HangVerdict {
  /** Stable rule id, e.g. 'editor', 'pager', 'git-commit-editor'. */
  rule: string;
  /** The full `loop-guard: …` message, under 600 characters. */
  message: string;
}
