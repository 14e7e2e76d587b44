// --redact: a report safe to share. Paths become placeholders, commands keep only their program names, outputs go.
import { baseName, splitCommands } from '../guard/core/shell/split.ts';
import type { AuditReport } from './aggregate.ts';
import type { Loop } from './session.ts';

/**
 * `npm test -- --grep foo && cat /etc/x` → `npm …; cat …`: each simple command keeps its program name (and wrappers
 * such as sudo), read by the guard's own shell splitter, so a quoted `;` or `|` cannot leak the words after it.
 */
export function redactCommand(command: string): string {
  let out = '';
  for (const c of splitCommands(command)) {
    // Commands inside $(…) or `sh -c '…'` are words of the outer one, which is already cut to its name.
    if (c.nested || c.argv.length === 0) continue;
    const name = [...c.wrappers, c.argv[0] as string].map(baseName).join(' ');
    out += `${name}${c.argv.length > 1 ? ' …' : ''}${c.pipedOut ? ' | ' : '; '}`;
  }
  return out.replace(/(?:; | \| )$/, '');
}

export function redactReport(report: AuditReport): AuditReport {
  const projects = new Map<string, string>();
  const project = (p: string) => {
    if (!p) return p;
    if (!projects.has(p)) projects.set(p, `<project-${projects.size + 1}>`);
    return projects.get(p) as string;
  };
  const sessions = new Map<string, string>();
  const session = (s: string) => {
    if (!sessions.has(s)) sessions.set(s, `<session-${sessions.size + 1}>`);
    return sessions.get(s) as string;
  };
  const loop = (l: Loop): Loop => ({
    ...l,
    file: `<${l.tool} transcript>`,
    session: session(l.session),
    project: project(l.project),
    command: l.commands.map(redactCommand).join(' → '),
    commands: l.commands.map(redactCommand),
    excerpt: '',
  });
  return {
    ...report,
    scope: { ...report.scope, project: report.scope.project === null ? null : project(report.scope.project) },
    loops: report.loops.map(loop),
    totals: {
      ...report.totals,
      byProject: report.totals.byProject.map((p) => ({ ...p, project: project(p.project) })),
      bySession: report.totals.bySession.map((s) => ({
        ...s,
        session: session(s.session),
        project: project(s.project),
      })),
    },
    prices: { ...report.prices, override: report.prices.override === null ? null : '<prices file>' },
    waits: {
      ...report.waits,
      examples: report.waits.examples.map((w) => ({ ...w, command: redactCommand(w.command) })),
    },
    read: {
      ...report.read,
      folders: report.read.folders.map((f) => ({ ...f, path: f.path.startsWith('~') ? f.path : `<${f.tool} folder>` })),
      unreadable: report.read.unreadable.map((u) => ({ ...u, file: '<transcript>' })),
    },
  };
}
