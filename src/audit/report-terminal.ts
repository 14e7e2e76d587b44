// The terminal report: worst loops first, a per-day bar of loop cost, one line per project; fits a screen by default.
import type { Palette } from '../report/colors.ts';
import type { AuditReport } from './aggregate.ts';
import type { Loop } from './session.ts';

const TOOL_NAMES: Record<string, string> = {
  claude: 'Claude Code',
  codex: 'Codex',
  opencode: 'OpenCode',
  gemini: 'Gemini CLI',
  copilot: 'Copilot CLI',
  qwen: 'Qwen Code',
  cline: 'Cline',
  kilo: 'Kilo',
};

export function fmtInt(n: number): string {
  return n.toLocaleString('en-US');
}

export function fmtTokens(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  return fmtInt(n);
}

export function fmtMs(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

function clip(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function cost(l: { requests: number; tokens?: number | undefined }): string {
  return `${fmtInt(l.requests)} request${l.requests === 1 ? '' : 's'}${l.tokens !== undefined ? `, ${fmtTokens(l.tokens)} tokens` : ''}`;
}

/** Three lines per loop: the command; what it cost and where the guard would have stepped in; when, where, and what it said. */
function loopLines(l: Loop, i: number, c: Palette): string[] {
  const what = l.kind === 'cycle' ? `cycle of ${l.commands.length}, ×${l.repeats}` : `×${l.repeats} identical`;
  const time = l.ms !== undefined ? ` over ${fmtMs(l.ms)}` : '';
  const steps = [
    l.guard.warnAt !== null ? `warn at ${l.guard.warnAt}` : null,
    l.guard.refuseAt !== null ? `refuse at ${l.guard.refuseAt}` : null,
    l.guard.handoffAt !== null ? `hand off at ${l.guard.handoffAt}` : null,
  ]
    .filter(Boolean)
    .join(', ');
  const saved = l.saved.requests > 0 || l.saved.tokens ? `, saves ${cost(l.saved)}` : '';
  const when = l.firstAt ? `${l.firstAt.slice(0, 16).replace('T', ' ')} · ` : '';
  const where = l.project ? `${clip(l.project, 40)} · ` : '';
  return [
    `${c.bold(`${String(i + 1).padStart(2)}.`)} ${c.cyan(clip(l.command, 100))}`,
    `    ${TOOL_NAMES[l.tool] ?? l.tool} · ${what}${time} · ${cost(l)}${l.exitCode !== undefined ? ` · exit ${l.exitCode}` : ''} · ${c.yellow(`guard: ${steps || 'no action'}${saved}`)}`,
    `    ${c.dim(`${when}${where}session ${l.session.slice(0, 8)}${l.excerpt ? ` · “${clip(l.excerpt, 70)}”` : ''}`)}`,
  ];
}

export function terminalReport(r: AuditReport, limit: number, c: Palette): string {
  const out: string[] = [];
  const t = r.totals;
  const where = r.scope.project === null ? 'all projects' : r.scope.project;
  const since = r.scope.since ? ` since ${r.scope.since.slice(0, 10)}` : '';
  out.push(c.bold(`create-loop-guard audit: ${where}${since}`));
  out.push(
    `${fmtInt(t.sessions)} sessions, ${fmtInt(t.shellCalls)} shell calls, ${fmtInt(t.allRequests)} model requests read. ` +
      (t.loops === 0
        ? c.green('No loops found.')
        : c.red(
            `${fmtInt(t.loops)} loop${t.loops === 1 ? '' : 's'}: ${cost({ requests: t.requests, tokens: t.tokens || undefined })}${t.ms ? `, ${fmtMs(t.ms)}` : ''}.`,
          )),
  );
  if (t.loops > 0) {
    out.push(
      `The guard would have saved ${c.bold(cost({ requests: t.saved.requests, tokens: t.saved.tokens || undefined }))}${t.saved.ms ? ` and ${fmtMs(t.saved.ms)}` : ''}.`,
    );
    out.push('', c.bold('Worst loops'));
    for (const [i, l] of r.loops.slice(0, limit).entries()) out.push(...loopLines(l, i, c));
    if (r.loops.length > limit)
      out.push(
        c.dim(`    … ${r.loops.length - limit} more (--limit ${r.loops.length} shows all, --json gives every field)`),
      );

    out.push('', c.bold('Loop cost per day'));
    const days = t.byDay.slice(-7);
    const metric = (d: { requests: number; tokens: number }) => (t.tokens > 0 ? d.tokens : d.requests);
    const max = Math.max(1, ...days.map(metric));
    for (const d of days) {
      const bar = '█'.repeat(Math.max(1, Math.round((metric(d) / max) * 30)));
      out.push(
        `  ${d.day}  ${c.red(bar)} ${t.tokens > 0 ? `${fmtTokens(d.tokens)} tokens` : `${fmtInt(d.requests)} requests`} (${d.loops} loop${d.loops === 1 ? '' : 's'})`,
      );
    }
  }
  if (t.byProject.length > 1 || r.scope.project === null) {
    out.push('', c.bold('Projects'));
    for (const p of t.byProject.slice(0, limit)) {
      out.push(
        `  ${clip(p.project || '(unknown)', 60)}  ${p.sessions} session${p.sessions === 1 ? '' : 's'} · ${p.loops} loop${p.loops === 1 ? '' : 's'}${p.loops ? ` · ${cost({ requests: p.requests, tokens: p.tokens || undefined })}` : ''}`,
      );
    }
    if (t.byProject.length > limit) out.push(c.dim(`  … ${t.byProject.length - limit} more`));
  }
  const tools = Object.entries(t.byTool).map(
    ([k, v]) =>
      `${TOOL_NAMES[k] ?? k} ${v.sessions} session${v.sessions === 1 ? '' : 's'}/${v.loops} loop${v.loops === 1 ? '' : 's'}`,
  );
  if (tools.length) out.push('', `Tools: ${tools.join(' · ')}`);
  if (r.waits.count > 0)
    out.push(
      `Commands that wait for a person (refused before running by the guard's hang rules): ${r.waits.count}, e.g. ${c.cyan(clip(r.waits.examples[0]?.command ?? '', 60))}`,
    );
  const inTranscripts = r.guard.refusedInTranscripts
    ? ` The transcripts show ${r.guard.refusedInTranscripts} attempt${r.guard.refusedInTranscripts === 1 ? '' : 's'} it refused.`
    : '';
  out.push(
    `Stopped since install (the guard's own log): ${r.guard.warnings} warning${r.guard.warnings === 1 ? '' : 's'}, ${r.guard.refusals} refusal${r.guard.refusals === 1 ? '' : 's'}${r.guard.handoffs ? ` (${r.guard.handoffs} ended the turn with a hand-off note)` : ''}${r.guard.since ? ` since ${r.guard.since.slice(0, 10)}` : ''}.${inTranscripts}`,
  );
  const mb = r.read.bytes / 1e6;
  const extra = [
    r.read.unknownLines ? `${fmtInt(r.read.unknownLines)} unknown lines skipped` : '',
    r.read.oversizeLines ? `${fmtInt(r.read.oversizeLines)} oversize lines skipped` : '',
  ].filter(Boolean);
  out.push(
    c.dim(
      `Read ${fmtInt(r.read.files)} transcripts (${mb.toFixed(1)} MB) in ${fmtMs(r.read.ms)}${extra.length ? `; ${extra.join(', ')}` : ''}. Nothing left this machine.`,
    ),
  );
  for (const u of r.read.unreadable) out.push(c.yellow(`Could not read ${u.file}: ${u.error}`));
  return `${out.join('\n')}\n`;
}
