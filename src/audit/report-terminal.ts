// The terminal report: the headline (loops, time, money, what the guard saves), worst loops first, a per-day bar of
// loop cost, one line per project; fits a screen by default.
import type { Palette } from '../report/colors.ts';
import type { AuditReport } from './aggregate.ts';
import {
  clip,
  fmtInt,
  fmtMs,
  fmtTokens,
  fmtUsd,
  kindsText,
  moneyText,
  plural,
  projectLabel,
  shortId,
  TOOL_NAMES,
} from './format.ts';
import type { Loop } from './session.ts';

export { fmtInt, fmtMs, fmtTokens, plural, projectLabel, shortId } from './format.ts';

function cost(l: { requests: number; tokens?: number | undefined }): string {
  return `${plural(l.requests, 'request')}${l.tokens !== undefined ? `, ${fmtTokens(l.tokens)} tokens` : ''}`;
}

/** Three lines per loop: the command; what it cost and where the guard would have stepped in; when, where, and what it
 * said. */
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
  const savedUsd = l.saved.usd !== null ? `, ${fmtUsd(l.saved.usd)}` : '';
  const saved = l.saved.requests > 0 || l.saved.tokens ? `, saves ${cost(l.saved)}${savedUsd}` : '';
  const when = l.firstAt ? `${l.firstAt.slice(0, 16).replace('T', ' ')} · ` : '';
  const where = `${clip(projectLabel(l.project), 40)} · `;
  return [
    `${c.bold(`${String(i + 1).padStart(2)}.`)} ${c.cyan(clip(l.command, 100))}`,
    `    ${TOOL_NAMES[l.tool] ?? l.tool} · ${what}${time} · ${cost(l)} · ${moneyText(l)}` +
      `${l.exitCode !== undefined ? ` · exit ${l.exitCode}` : ''} · ` +
      `${c.yellow(`guard: ${steps || 'no action'}${saved}`)}`,
    `    ${c.dim(`${when}${where}session ${shortId(l.session)}${l.excerpt ? ` · “${clip(l.excerpt, 70)}”` : ''}`)}`,
  ];
}

/** The four lines a reader needs first: how many loops, how long, how much money, and what the guard would have
 * saved. */
export function headline(r: AuditReport, c: Palette): string[] {
  const t = r.totals;
  const unknown = r.prices.unknownModels.length ? ` (no price for ${r.prices.unknownModels.join(', ')})` : '';
  const savedParts = [
    t.saved.usd !== null ? fmtUsd(t.saved.usd) : '',
    plural(t.saved.requests, 'model request'),
    t.saved.ms ? fmtMs(t.saved.ms) : '',
  ].filter(Boolean);
  return [
    `  ${c.bold('Loops')}           ${c.red(fmtInt(t.loops))} (${plural(t.requests, 'model request')} inside them)`,
    `  ${c.bold('Time in loops')}   ${c.red(t.ms ? fmtMs(t.ms) : 'not recorded')}`,
    `  ${c.bold('Money in loops')}  ${c.red(moneyText(t))}, an estimate at list prices${unknown}`,
    `  ${c.bold('Guard saves')}     ${c.green(savedParts.join(', '))}`,
  ];
}

/** No session in scope: where the audit looked, what is there for other projects, and the line that reads it. */
function nothingHere(r: AuditReport, c: Palette): string[] {
  const out = ['', c.bold('Folders read')];
  const width = Math.max(...r.read.folders.map((f) => (TOOL_NAMES[f.tool] ?? f.tool).length));
  for (const f of r.read.folders) {
    const name = (TOOL_NAMES[f.tool] ?? f.tool).padEnd(width);
    const other = r.elsewhere?.byTool[f.tool] ?? 0;
    const what = !f.exists
      ? c.dim('not there')
      : `${plural(f.transcripts, f.database ? 'database' : 'transcript')}` +
        `${other ? `, ${plural(other, 'session')} of other projects` : ''}`;
    out.push(`  ${name}  ${f.path}  ${what}`);
  }
  const e = r.elsewhere;
  if (e && e.sessions > 0) {
    out.push(
      '',
      `None of them ran in ${r.scope.project}; ${plural(e.sessions, 'session')} of other projects ` +
        `${e.sessions === 1 ? 'is' : 'are'} there${e.newest ? ` (the newest ${e.newest.slice(0, 10)})` : ''}` +
        `. To read ${e.sessions === 1 ? 'it' : 'them'}:`,
      ...e.commands.map((cmd) => `  ${c.cyan(cmd)}`),
    );
  } else if (r.read.folders.every((f) => !f.exists)) {
    out.push('', 'No agent transcripts on this machine (no tool folder above exists).');
  }
  return out;
}

export function terminalReport(r: AuditReport, limit: number, c: Palette): string {
  const out: string[] = [];
  const t = r.totals;
  const where = r.scope.project === null ? 'all projects' : r.scope.project;
  const since = r.scope.since ? ` since ${r.scope.since.slice(0, 10)}` : '';
  out.push(c.bold(`create-loop-guard audit: ${where}${since}`));
  if (t.loops > 0) out.push(...headline(r, c));
  out.push(
    `${plural(t.sessions, 'session')}, ${plural(t.shellCalls, 'shell call')}, ` +
      `${plural(t.allRequests, 'model request')} read.` +
      `${t.loops === 0 ? ` ${c.green('No loops found.')}` : ''}`,
  );
  if (t.sessions === 0) out.push(...nothingHere(r, c));
  if (t.loops > 0) {
    if (t.tokens > 0) out.push(c.dim(`Tokens in loops by kind: ${kindsText(t.tokenKinds)}.`));
    out.push('', c.bold('Worst loops'));
    for (const [i, l] of r.loops.slice(0, limit).entries()) out.push(...loopLines(l, i, c));
    if (r.loops.length > limit)
      out.push(
        c.dim(`    … ${r.loops.length - limit} more (--limit ${r.loops.length} shows all, --json gives every field)`),
      );

    out.push('', c.bold('Loop cost per day'));
    const days = t.byDay.slice(-7);
    // Bars in dollars where any day has a price, else in tokens, else in requests.
    const unit = days.some((d) => d.usd !== null) ? 'usd' : t.tokens > 0 ? 'tokens' : 'requests';
    const metric = (d: (typeof days)[number]) =>
      unit === 'usd' ? (d.usd ?? 0) : unit === 'tokens' ? d.tokens : d.unrecorded < d.requests ? d.requests : 0;
    const max = Math.max(Number.MIN_VALUE, ...days.map(metric));
    for (const d of days) {
      // Nothing spent or nothing known, nothing drawn: a bar of one block would read as a cost.
      const bar = metric(d) > 0 ? '█'.repeat(Math.max(1, Math.round((metric(d) / max) * 30))) : '';
      const amount =
        unit === 'usd'
          ? moneyText(d)
          : d.unrecorded === d.requests && d.requests > 0
            ? `${plural(d.requests, 'request')}, usage not recorded`
            : unit === 'tokens'
              ? `${fmtTokens(d.tokens)} tokens`
              : plural(d.requests, 'request');
      out.push(`  ${d.day}  ${c.red(bar)}${bar ? ' ' : ''}${amount} (${plural(d.loops, 'loop')})`);
    }
  }
  if (t.byProject.length > 1 || (r.scope.project === null && t.byProject.length > 0)) {
    out.push('', c.bold(t.loops > 0 ? 'Projects, by money lost in loops' : 'Projects'));
    for (const p of t.byProject.slice(0, limit)) {
      out.push(
        `  ${clip(projectLabel(p.project), 60)}  ${plural(p.sessions, 'session')} · ` +
          `${plural(p.loops, 'loop')}` +
          `${p.loops ? ` · ${moneyText(p)} · ${cost({ requests: p.requests, tokens: p.tokens || undefined })}` : ''}`,
      );
    }
    if (t.byProject.length > limit) out.push(c.dim(`  … ${t.byProject.length - limit} more`));
  }
  const tools = Object.entries(t.byTool).map(
    ([k, v]) => `${TOOL_NAMES[k] ?? k} ${plural(v.sessions, 'session')}/${plural(v.loops, 'loop')}`,
  );
  if (tools.length) out.push('', `Tools: ${tools.join(' · ')}`);
  if (r.waits.count > 0)
    out.push(
      `Commands that wait for a person (refused before running by the guard's hang rules): ${r.waits.count}` +
        `, e.g. ${c.cyan(clip(r.waits.examples[0]?.command ?? '', 60))}`,
    );
  const inTranscripts = r.guard.refusedInTranscripts
    ? ` The transcripts show ${plural(r.guard.refusedInTranscripts, 'attempt')} it refused.`
    : '';
  out.push(
    `Stopped since install (the guard's own log): ${plural(r.guard.warnings, 'warning')}, ` +
      `${plural(r.guard.refusals, 'refusal')}` +
      `${r.guard.handoffs ? ` (${r.guard.handoffs} ended the turn with a hand-off note)` : ''}` +
      `${r.guard.since ? ` since ${r.guard.since.slice(0, 10)}` : ''}.${inTranscripts}`,
  );
  if (t.loops > 0)
    out.push(
      c.dim(
        `Money: list prices checked ${r.prices.checked}` +
          `${r.prices.override ? ` (with ${r.prices.override} first)` : ''}; subscriptions bill differently. ` +
          `--prices FILE uses your own.`,
      ),
    );
  const mb = r.read.bytes / 1e6;
  const extra = [
    r.read.unknownLines ? `${fmtInt(r.read.unknownLines)} unknown lines skipped` : '',
    r.read.oversizeLines ? `${fmtInt(r.read.oversizeLines)} oversize lines skipped` : '',
  ].filter(Boolean);
  out.push(
    c.dim(
      `Read ${plural(r.read.files, 'transcript')} (${mb.toFixed(1)} MB) in ${fmtMs(r.read.ms)}` +
        `${extra.length ? `; ${extra.join(', ')}` : ''}. Nothing left this machine.`,
    ),
  );
  for (const u of r.read.unreadable) out.push(c.yellow(`Could not read ${u.file}: ${u.error}`));
  return `${out.join('\n')}\n`;
}
