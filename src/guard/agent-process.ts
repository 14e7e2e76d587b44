// Which agent process ran this hook, so a prompt can tell a live session (one process, a person typing again) from
// a resumed one (a new process: `claude -p --resume`, `codex exec resume`). Linux only (/proc); undefined elsewhere.
import { readFileSync } from 'node:fs';

const SHELL = /^(?:sh|bash|dash|zsh|ash)$/;

/** pid, command name and start time (clock ticks since boot) of one process, from /proc/<pid>/stat. */
function stat(pid: number): { ppid: number; comm: string; start: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    // After "pid (comm) ": state, ppid, …; starttime is the 22nd field of the line, the 20th after the comm.
    const rest = text.slice(close + 2).split(' ');
    const ppid = Number(rest[1]);
    const start = rest[19];
    return Number.isInteger(ppid) && start ? { ppid, comm, start } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `pid:starttime` of the agent that spawned this hook: the parent, or its parent when the parent is the shell the
 * agent runs hook commands in. The start time makes a reused pid a different process. undefined when unknown.
 */
export function agentProcess(parent: number = process.ppid): string | undefined {
  const p = stat(parent);
  if (!p) return undefined;
  if (!SHELL.test(p.comm)) return `${parent}:${p.start}`;
  const gp = stat(p.ppid);
  return gp ? `${p.ppid}:${gp.start}` : undefined;
}
