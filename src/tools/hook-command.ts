// The shape of every installed hook command: one line that every shell a tool may run it in reads the same way —
// sh, bash and zsh on Linux and macOS; Git Bash, cmd.exe, Windows PowerShell 5.1 and PowerShell 7 on Windows
// (docs/guard-file.md, "One command for every shell") — and that answers "no opinion" when the guard file is missing.
import { GUARD_PATH } from './markers.ts';

/** What the loader may not hold: a shell would read it (sh, fish, PowerShell, cmd.exe), or a tool mangle it. */
export const LOADER_FORBIDDEN = [' ', '"', "'", '$', '\\', '%', '!', '&', '|', '<', '>', '^', '\n'];

/**
 * The JavaScript `node -e` runs: from the tool's project-dir variable (or the hook's cwd) up to the repository's top,
 * the first `.agents/hooks/loop-guard.cjs` found is required, which runs it as the hook (the `_` before the tool's name
 * puts that name where `node <file> <tool>` has it); none found is exit 0 with no output. It holds none of
 * LOADER_FORBIDDEN, so it reaches node unchanged in single quotes (sh, fish, PowerShell) and bare (cmd.exe).
 */
export function guardLoader(rootEnv?: string): string {
  const start = rootEnv ? `process.env.${rootEnv}??process.cwd()` : 'process.cwd()';
  return (
    `p=require(\`path\`),x=require(\`fs\`).existsSync,g=\`${GUARD_PATH}\`;` +
    `for(d=${start};x(p.join(d,g))?0:x(p.join(d,\`.git\`))?0:(u=p.dirname(d))==d?0:d=u;);` +
    'x(f=p.join(d,g))?require(f):0'
  );
}

/** cmd.exe's half of the line: to cmd the quoted loader is a JavaScript string (a no-op), and `&` runs this; to
 *  every other shell it is a comment. cmd runs hooks only where the cwd is the repository's root (Qwen Code). */
function cmdTail(tool: string): string {
  const win = GUARD_PATH.replaceAll('/', '\\');
  return ` # & if exist ${win} node ${win} ${tool}`;
}

/**
 * `node -e '<loader>' _ <tool>`, with cmd.exe's half after it. Exit 0 with an empty stdout is "no opinion" in every
 * tool we set up, and the guard itself always exits 0. Only a missing `node` fails (127, or "not recognized" on
 * Windows): `posix` is for a field only a POSIX shell runs (Copilot's `command`), which gets `|| true` for the tail.
 */
export function guardCommand(tool: string, opts: { rootEnv?: string; posix?: boolean } = {}): string {
  const line = `node -e '${guardLoader(opts.rootEnv)}' _ ${tool}`;
  return opts.posix ? `${line} || true` : `${line}${cmdTail(tool)}`;
}

/**
 * The line for a field only PowerShell runs (Copilot's `powershell`, Windows PowerShell 5.1 included): it checks for
 * node first, because there a failing preToolUse hook denies the tool call, and 5.1 has no `||`.
 */
export function powershellGuardCommand(tool: string): string {
  const run = `node -e '${guardLoader()}' _ ${tool}`;
  return `if (Get-Command node -CommandType Application -ErrorAction SilentlyContinue) { ${run} }; exit 0`;
}

/** Where our loader starts looking when `js` is one (`rootEnv` undefined: the cwd), or null for any other code. */
export function loaderStart(js: string): { rootEnv?: string } | null {
  const rootEnv = /for\(d=process\.env\.([A-Z_]+)\?\?/.exec(js)?.[1];
  return js === guardLoader(rootEnv) ? (rootEnv ? { rootEnv } : {}) : null;
}

/** The loader's start when `command` is one of our `node -e` lines, or null. */
export function ourLoaderRoot(command: string): { rootEnv?: string } | null {
  const m = /^node -e '([^']*)' _ ([a-z]+)( \|\| true| # & if exist \S+ node \S+ [a-z]+)?$/.exec(command);
  const start = m ? loaderStart(m[1] as string) : null;
  if (!m || !start) return null;
  return guardCommand(m[2] as string, { ...start, posix: m[3] === ' || true' }) === command ? start : null;
}

/** The command inside a fail-open `|| true` (the older `test -f <file> && node <file> <tool> || true` too), or the
 *  command as it is: doctor runs the inner one, so a node that is missing or a guard that crashes still shows. */
export function innerGuardCommand(command: string): string {
  const old = /^test -f (\S+|"[^"]*"\S*) && (.+) \|\| true$/.exec(command);
  if (old) return old[2] as string;
  return ourLoaderRoot(command) && command.endsWith(' || true') ? command.slice(0, -' || true'.length) : command;
}
