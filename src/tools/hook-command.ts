// The shape of every installed hook command: one line that every shell a tool may run it in reads the same way —
// sh, bash and zsh on Linux and macOS; Git Bash, cmd.exe, Windows PowerShell 5.1 and PowerShell 7 on Windows
// (docs/guard-file.md, "One command for every shell") — and that answers "no opinion" when the guard file is missing.
import { GUARD_PATH } from './markers.ts';

/**
 * The loader `node -e` runs: from the tool's project-dir variable (or the hook's cwd) up to the repository's top, the
 * first `.agents/hooks/loop-guard.cjs` found is run as the hook (argv as `node <file> <tool>` gives it); none found is
 * exit 0 with no output. It must hold no `"` (every shell's quote), `$` and `` ` `` (sh and PowerShell expand them in
 * double quotes), `\` (sh escapes), `%` (cmd.exe expands it even in quotes) or `!`: a test checks it.
 */
export function guardLoader(rootEnv?: string): string {
  const start = rootEnv ? `process.env.${rootEnv}||process.cwd()` : 'process.cwd()';
  return (
    `const p=require('path'),f=require('fs');let d=${start};` +
    `for(;;){const g=p.join(d,'${GUARD_PATH}');` +
    `if(f.existsSync(g)){process.argv.splice(1,0,g);require(g);break}` +
    `const u=p.dirname(d);if(u===d||f.existsSync(p.join(d,'.git')))break;d=u}`
  );
}

/**
 * `node -e "<loader>" <tool>`. Exit 0 with an empty stdout is "no opinion" in every tool we set up, and the guard
 * itself always exits 0. Only a missing `node` fails (127, or "not recognized" on Windows): a POSIX-only `|| true`
 * would break the line in PowerShell, so it is added only where the tool's field is run by a POSIX shell (`posix`).
 */
export function guardCommand(tool: string, opts: { rootEnv?: string; posix?: boolean } = {}): string {
  const line = `node -e "${guardLoader(opts.rootEnv)}" ${tool}`;
  return opts.posix ? `${line} || true` : line;
}

/** Where our loader starts looking when `js` is one (`rootEnv` undefined: the cwd), or null for any other code. */
export function loaderStart(js: string): { rootEnv?: string } | null {
  const env = /^const p=require\('path'\),f=require\('fs'\);let d=process\.env\.([A-Z_]+)\|\|/.exec(js);
  const rootEnv = env?.[1];
  return js === guardLoader(rootEnv) ? (rootEnv ? { rootEnv } : {}) : null;
}

/** The loader's start when `command` is one of our `node -e` lines, or null. */
export function ourLoaderRoot(command: string): { rootEnv?: string } | null {
  const m = /^node -e "([^"]*)" [a-z]+( \|\| true)?$/.exec(command);
  return m ? loaderStart(m[1] as string) : null;
}

/** The command inside a fail-open `|| true` (the older `test -f <file> && node <file> <tool> || true` too), or the
 *  command as it is: doctor runs the inner one, so a node that is missing or a guard that crashes still shows. */
export function innerGuardCommand(command: string): string {
  const old = /^test -f (\S+|"[^"]*"\S*) && (.+) \|\| true$/.exec(command);
  if (old) return old[2] as string;
  return ourLoaderRoot(command) && command.endsWith(' || true') ? command.slice(0, -' || true'.length) : command;
}
