// A tool is data: where its evidence lives, and what files it needs from us.

/** Our entries in a tool's hooks file: which events, in which shape, running which command. */
export interface HookEntrySpec {
  /** 'nested' = Claude Code / Codex shape: { hooks: { Event: [ { matcher?, hooks: [ { type:'command', command, timeout
   * } ] } ] } }
   *  'flat'   = Cursor shape: { version: 1, hooks: { event: [ { command, matcher?, timeout } ] } } */
  style: 'nested' | 'flat';
  events: Array<{ event: string; matcher?: string }>;
  command: string; // the full hook command string
  /** More command fields of each entry, by name: a tool that takes a command per shell (Copilot's `powershell`). */
  shells?: Record<string, string>;
  timeout: number; // seconds
  /** Substring that identifies OUR entries in any command (e.g. '.agents/hooks/loop-guard'). */
  marker: string;
}

import type { ToolName } from './names.ts';

export { TOOL_NAMES, type ToolName } from './names.ts';

/** Files we own outright; their content comes from the package. */
export type OwnedAsset =
  | 'guard'
  | 'opencode-plugin'
  | 'cline-loader'
  | 'kilo-plugin'
  | 'cursor-env'
  | 'agents-gitignore';

export type Intent =
  | {
      kind: 'owned';
      path: string;
      asset: OwnedAsset;
      mode: number;
      /** The file may already be the user's (a shared folder such as .agents/): our lines then go in as a managed
       *  block in this comment style instead of a conflict. */
      shared?: 'shell-block';
    }
  | { kind: 'json'; path: string; hooks: HookEntrySpec; env?: { path: string[] }; ensureTop?: Record<string, unknown> }
  | { kind: 'toml-env'; path: string }
  | { kind: 'block'; path: string; template: 'agents-block' | 'gitattributes' }
  | {
      /** The stop rule in the file a tool reads instead of AGENTS.md: a managed block there (an import of AGENTS.md
       *  would add all of it to every session), or nothing when the tool reads AGENTS.md already. */
      kind: 'import';
      path: string;
      /** The import that would mean the tool reads AGENTS.md already (`@AGENTS.md`). */
      line: string;
      /** Who reads the file, for the plan's token line ("every Claude Code session"). */
      reader: string;
      /** Other files the tool reads, with the import line that, there, means it reads AGENTS.md already. `instead`:
       *  the tool's memory lives there too, so when `path` is missing and this file exists the stop rule goes here. */
      alsoRead?: { path: string; line: string; instead?: true }[];
      /** A JSON settings file whose context-file setting (any of these key paths) names the files the tool reads
       *  instead of `path`: AGENTS.md itself, or another file, which then holds the stop rule. */
      contextSetting?: { path: string; keys: string[][] };
      /** Set by the plan, not the record: where an earlier install put the stop rule before the setting sent it
       *  elsewhere, so the run takes it out there. */
      leftIn?: { path: string; line: string };
    };

/**
 * What doctor needs to know about a tool. Doctor is generic code (src/doctor/ names no tool): every per-tool fact it
 * uses is a field here, and every per-tool check is a kind from its small library named by a field here. A new tool
 * with the usual hook file needs `traces`, `shellLabel`, `envFix` and `replay`; the other fields are its quirks.
 */
export interface DoctorFacts {
  /** Repo files whose mention of our hook marker shows the tool is set up, and files whose presence alone shows it. */
  traces: { mentions?: string[]; exists?: string[] };
  /** The shell the tool runs commands in, as a check names it ("Claude Code's shell"). */
  shellLabel: string;
  /** How to give that shell our environment values that doctor finds missing (one fix naming them all). */
  envFix: (vars: ReadonlyArray<readonly [key: string, value: string]>) => string;
  /** How doctor drives the tool's hook commands with its captured payloads (absent: no command hooks, e.g. a
   * plugin). */
  replay?: ReplayFacts;
  /** An in-process plugin instead of hook commands: doctor loads it in a child Node and drives it (see PluginFacts). */
  plugin?: PluginFacts;
  /** Config files doctor reads besides the intents' own, by a name the fields below use. The intents' files are
   *  named 'hooks' (the json intent's file) and 'env' (the toml-env intent's file). */
  files?: Record<string, ConfigFile>;
  /** Also look for our hook entries in these files (by name; Codex also takes `[hooks]` in config.toml). */
  hooksAlsoIn?: string[];
  /** Variables the tool gives every hook command; `{root}` is the repository root. */
  hookEnv?: Record<string, string>;
  /** Variables whose presence makes the guard read a payload as this tool's: doctor's replay never inherits them. */
  identityEnv?: string[];
  /** Settings files whose env table (the json intent's `env.path`) the tool also gives its hooks and its shell, later
   *  files winning. */
  settingsEnv?: { files: string[] };
  /** Settings doctor reports on the `<tool>.hooks` check (all hooks switched off, a required top-level field). */
  hookRules?: ConfigRule[];
  /** What the tool itself puts into its shell's environment; `forced` when it wins over the config (Codex). */
  shellEnv?: { env: Record<string, string>; source: string; forced?: true };
  /** The tool runs project hooks only in a folder the user trusts: which of doctor's trust checks reads that. */
  trust?: TrustFacts;
  /** Further checks from doctor's library, in order. */
  checks?: DoctorCheck[];
}

/** A config file: repo-relative, or `~/…` in the user's home. JSON(C), or TOML when it ends in `.toml`. */
export interface ConfigFile {
  path: string;
  /** Variables that move it, the first one set (and not empty) winning: its value replaces `dir`, the start of `path`.
   *  Messages then name the file `$VAR/…`. */
  movedBy?: Array<{ env: string; dir: string }>;
}

/** A setting in one of the tool's config files that fails the `<tool>.hooks` check. */
export interface ConfigRule {
  /** The files to look in, in order (names as in DoctorFacts.files). */
  in: string[];
  /** The key path in the parsed file. */
  key: string[];
  /** Fails when the value is exactly this… */
  is?: string | number | boolean;
  /** …or when the file parses and the value is anything but this. */
  isNot?: string | number | boolean;
  /** `{file}` is the file as messages name it. */
  message: string;
  fix: string;
}

/** Doctor's trust checks (src/doctor/trust.ts), by the shape of the user's trust file. Texts: `{file}` is the trust
 *  file as shown, `{root}` the repository, `{hit}` the matching entry, `{why}`/`{error}`/`{denied}` what was found. */
export type TrustFacts =
  /** TOML `[projects."<root>"] trust_level = "trusted"`. */
  | {
      kind: 'projects-table';
      file: string;
      texts: { missing: string; unreadable: string; trusted: string; untrusted: string; fix: string };
    }
  /** A JSON object `path → TRUST_FOLDER | TRUST_PARENT | DO_NOT_TRUST`; `allEnv=true` trusts all; `off` turns trust
   * off. */
  | {
      kind: 'folder-rules';
      file: string;
      allEnv: string;
      off: { file: string; key: string[]; is: boolean };
      texts: { all: string; off: string; trusted: string; untrusted: string; denied: string; fix: string };
    }
  /** A JSON list of trusted folders under `key`; `allEnv=true` trusts all. */
  | {
      kind: 'folder-list';
      file: string;
      key: string;
      allEnv: string;
      texts: { all: string; trusted: string; untrusted: string; fix: string };
    };

/** Doctor's further checks (src/doctor/extra-checks.ts), each `<tool>.<id>`. */
export type DoctorCheck =
  /** `import`: the import intent's file (or one of `also`) imports AGENTS.md, or links to it. */
  | { kind: 'import'; also?: string[] }
  /** `hook-approval`: a reminder that the tool runs a project hook only once approved, with the approvals `file`
   * records
   *  (TOML `[hooks.state."<abs hooks file>:<snake_event>:…"] trusted_hash`). */
  | { kind: 'hook-approval'; file: string; how: string }
  /** `instructions`: the AGENTS.md chain from the root down fits the tool's instruction budget (`key` in `file` or the
   *  env intent's file, else `bytes`). */
  | { kind: 'instructions-budget'; file: string; key: string; bytes: number }
  /** `env`: the tool's shell gets our values only from the user's shell profile, through the owned `snippet`. */
  | { kind: 'profile-env'; snippet: string }
  /** `twice`: the tool also runs another tool's hook file (`file`, repo-relative) by a default setting (`setting`), so
   *  with our entries in both it starts the guard twice per call. */
  | { kind: 'also-runs'; file: string; setting: string }
  /** `events`: every event name in the hooks file is one the tool knows (`known`, from `source`): an unknown one
   *  makes it ignore the whole file. */
  | { kind: 'known-events'; known: string[]; source: string };

/**
 * How doctor replays a tool's hook payloads: 7 attempts of one failing command, a user turn, one more attempt, and a
 * command the hang rules refuse. Each step sends a captured payload (assets/payloads/<tool>/<file>, a copy of
 * test/fixtures/payloads) with only the fields named here overwritten, and only where the captured payload has them.
 *
 * For a new tool: copy a failing pre, its post and a user-prompt payload into assets/payloads/<tool>/, name their
 * events and files, point the paths below at their fields, write `result` as the tool writes a finished run, and pick
 * the reader that parses what its adapter prints (test/doctor/answers.test.ts reads the adapter's real answers with
 * it, and test/doctor/replay.test.ts checks every path below exists in the payloads).
 */
export interface ReplayFacts {
  /** The event each step is sent as (the key under which the config lists our command) and its captured payload. */
  pre: { event: string; payload: string };
  post: { event: string; payload: string };
  turn: { event: string; payload: string };
  /** Dotted path of the shell command in the pre and post payloads. */
  command: string;
  /** Dotted paths that hold the working directory: each gets the repository root (a list gets [root]). */
  root: string[];
  /** The per-user-message id: turn 1 keeps the captured value, a later turn gets a new one. */
  turnId?: string;
  /** The tool-call id that pairs a pre with its post: a new one per attempt. */
  callId?: string;
  /** The user-turn payload's prompt fields. */
  prompt: string[];
  /** The fields of the post payload that carry a finished run, as the tool writes them. */
  result: (run: { command: string; output: string; exitCode: number; attempt: number }) => Record<string, unknown>;
  /** How the tool reads a hook's stdout: one of doctor's readers (src/doctor/answers.ts). */
  answers: AnswerFormat;
  /** The hand-off: 'stops' = an answer that refuses and stops the turn (the reader sees the tool's stop field);
   *  'refusal' = a refusal whose reason says the turn stops here (the tool has no stop field the hook can set). */
  handoff: 'stops' | 'refusal';
  /** Where the hand-off really ends the run when the pre answer cannot (Copilot's PermissionRequest, Qwen's next
   *  UserPromptSubmit): the event, its captured payload (the same fields overwritten; `command` when the command sits
   *  elsewhere in it), and the fields of the answer that stops the run (the adapter renders them; a test keeps the two
   *  equal). The replay sends it after each pre. */
  stop?: { event: string; payload: string; command?: string; answer: Record<string, unknown> };
  /** The tool's Windows shell tool (Claude Code's PowerShell): its captured pre payload, sent last with a PowerShell
   *  command the hang rules refuse, so doctor proves the Windows tool the way it proves the POSIX one. */
  windowsShell?: { label: string; payload: string };
}

/** The answer shapes doctor can read (src/doctor/answers.ts). */
export type AnswerFormat =
  /** `{hookSpecificOutput:{hookEventName, permissionDecision, permissionDecisionReason, additionalContext}}`,
   * `continue`
   *  + `stopReason` at the top; plain text on the user-prompt event reaches the model. */
  | 'hook-specific-output'
  /** the same, and any other top-level field is rejected */
  | 'hook-specific-output-only'
  /** `{permission, agent_message, user_message, additional_context}`; `continue:false` on the prompt refuses it */
  | 'permission-fields'
  /** `{decision:'deny', reason}` or hookSpecificOutput's deny; `additionalContext` at the top or in
   * hookSpecificOutput */
  | 'decision-or-context';

/** An in-process plugin (OpenCode's plugin API): the owned file, the built asset it must equal, the captured
 * payloads. */
export interface PluginFacts {
  path: string;
  /** The loader in dist/templates/ it is a copy of (with our header); it loads the guard file. */
  dist: string;
  /** Captured payloads in assets/payloads/<tool>/: the plugin's init context, before/after a shell call, a user
   * message. */
  payloads: { init: string; before: string; after: string; turn: string };
  /** The hooks the plugin must export. */
  hooks: string[];
}

export interface ToolRecord {
  name: ToolName;
  label: string;
  /** The tool's user-level config files, relative to $HOME: a directory where one of them is the user's own file is
   *  $HOME-like, not a project, and the scaffolder refuses it. */
  userLevel: string[];
  /** Other names people type for it in --tools (the product and package names). */
  aliases?: string[];
  /** Repo-relative paths whose existence shows the tool is in use (a trailing / means a directory). */
  evidence: string[];
  /** Paths that only suggest it (often there for another product of the same name): listed as "also possible" with
   *  the --tools line that adds it, never installed on their own. */
  weakEvidence?: string[];
  intents: Intent[];
  /** The tool's agent shell takes our environment only from the user's shell profile (opt-in --shell-profile). */
  needsShellProfile?: boolean;
  /** What doctor needs to know about the tool. */
  doctor: DoctorFacts;
  /** What the user still has to do after applying, one sentence each, printed after "<label>: " (so not naming the
   * tool). */
  nextSteps: string[];
  /** The tool reads one instructions file a folder, AGENTS.md or a fallback name a config key lists (the project's
   *  config first, then the user's), so a new AGENTS.md can take the place of the file it read. */
  docFallback?: { key: string; configs: Array<{ path: string; movedBy?: { env: string; dir: string } }> };
}

import { GUARD_PATH } from './markers.ts';
export { GUARD_PATH, HOOK_MARKER } from './markers.ts';
export const HOOK_TIMEOUT_SECONDS = 10;

export { AGENT_ENV } from './env.ts';

export const GUARD_INTENT: Intent = { kind: 'owned', path: GUARD_PATH, asset: 'guard', mode: 0o644 };
