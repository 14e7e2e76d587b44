// Codex 0.171 has no hook answer that ends a turn (continue:false is ignored or drops the whole answer), so for an
// unattended `codex exec` run the hand-off ends it the way a person would: an interrupt to that process. Only a
// `codex exec` ancestor of this hook is signalled, never the interactive TUI (a person is there to read the refusal).
import { readFileSync } from 'node:fs';

/** One process: its parent and its argv, from /proc (Linux); undefined elsewhere or when unreadable. */
export interface ProcInfo {
  ppid: number;
  argv: string[];
}

function procInfo(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may itself hold spaces and parentheses: the fields after it start at the last
    // ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(rest[1]);
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((a) => a !== '');
    return Number.isInteger(ppid) ? { ppid, argv } : undefined;
  } catch {
    return undefined;
  }
}

/** True for the argv of a `codex exec` process (the native binary or its node launcher). */
export function isCodexExec(argv: readonly string[]): boolean {
  const i = argv.findIndex((a) => /(?:^|\/)codex(?:\.js|\.exe)?$/.test(a));
  return i !== -1 && argv.slice(i + 1).some((a) => a === 'exec' || a === 'e');
}

const SHELL = /(?:^|\/)(?:sh|bash|dash|zsh|ash)$/;

/**
 * The `codex exec` process that ran this hook: the parent, or the parent's parent when the parent is the shell Codex
 * runs hook commands in. Nothing further up counts, so a test suite or a script that happens to run under Codex is
 * never interrupted by a hook process it spawned itself.
 */
export function findCodexExec(
  parent: number,
  info: (pid: number) => ProcInfo | undefined = procInfo,
): number | undefined {
  const p = info(parent);
  if (!p) return undefined;
  if (isCodexExec(p.argv)) return parent;
  if (!SHELL.test(p.argv[0] ?? '')) return undefined;
  const gp = info(p.ppid);
  return gp && isCodexExec(gp.argv) ? p.ppid : undefined;
}

/** Interrupts the `codex exec` run this hook belongs to; false when there is none (interactive, other OS). Never
 * throws. */
export function stopCodexExec(kill: (pid: number, signal: NodeJS.Signals) => void = process.kill): boolean {
  try {
    const pid = findCodexExec(process.ppid);
    if (pid === undefined) return false;
    kill(pid, 'SIGINT');
    return true;
  } catch {
    return false;
  }
}
