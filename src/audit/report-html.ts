// The HTML report: one self-contained page (inline CSS and SVG, no script, no font, no request) with the headline, a
// timeline per loop, loop cost per day, and the loop and session tables. Plain template functions; every value is
// escaped. A loop's calls are one SVG path however many there are, so the page stays small on big histories.
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

/** Loops drawn as timelines and listed in the table; the rest are counted. */
export const HTML_LOOPS = 50;

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string,
  );

const W = 720;
const H = 46;
const PAD = 8;

/** x of each attempt: by time when the transcript recorded times, else evenly spaced. */
function positions(l: Loop): { xs: number[]; timed: boolean } {
  const n = Math.max(l.attempts, 1);
  const t = l.timeline;
  const span = t && t.length > 1 ? (t[t.length - 1] as number) : 0;
  if (t && span > 0) return { xs: t.map((v) => PAD + (v / span) * (W - 2 * PAD)), timed: true };
  return { xs: Array.from({ length: n }, (_, i) => PAD + (n === 1 ? 0 : (i / (n - 1)) * (W - 2 * PAD))), timed: false };
}

/** One loop's calls as a single path of ticks, and where the guard would have warned, refused and handed off. */
export function timelineSvg(l: Loop, i: number): string {
  const { xs, timed } = positions(l);
  const d = xs.map((x) => `M${x.toFixed(1)} 14v18`).join('');
  const step = (at: number | null, cls: string, label: string, dy: number) => {
    if (at === null) return '';
    const x = xs[Math.min(at, xs.length) - 1];
    if (x === undefined) return '';
    // Labels near the right edge are drawn to the left of their line, so they stay inside the box.
    const right = x > W - 90;
    return (
      `<g class="${cls}"><line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="6" y2="40"/><text x="` +
      `${(right ? x - 3 : x + 3).toFixed(1)}" y="${dy}"${right ? ' text-anchor="end"' : ''}>${label} (${at}` +
      `)</text></g>`
    );
  };
  const title =
    `${plural(l.attempts, 'call')}${l.ms !== undefined ? ` over ${fmtMs(l.ms)}` : ''}` +
    `${timed ? '' : ', evenly spaced (no times recorded)'}`;
  return (
    `<svg class="timeline" data-loop="${i + 1}" viewBox="0 0 ${W} ${H}" width="100%" role="img" ` +
    `aria-label="${esc(title)}"><title>${esc(title)}</title><line class="axis" x1="${PAD}" x2="${W - PAD}` +
    `" y1="23" y2="23"/><path class="calls" d="${d}"/>${step(l.guard.warnAt, 'warn', 'warn', 12)}` +
    `${step(l.guard.refuseAt, 'refuse', 'refuse', 44)}` +
    `${step(l.guard.handoffAt, 'handoff', 'hand off', 12)}</svg>`
  );
}

function perDaySvg(r: AuditReport): string {
  const days = r.totals.byDay.slice(-60);
  if (days.length === 0) return '<p class="dim">No loops, no cost.</p>';
  const unit = days.some((d) => d.usd !== null) ? 'usd' : 'tokens';
  const v = (d: (typeof days)[number]) => (unit === 'usd' ? (d.usd ?? 0) : d.tokens);
  const max = Math.max(Number.MIN_VALUE, ...days.map(v));
  const bw = Math.min(60, (W - 2 * PAD) / days.length);
  const bars = days
    .map((d, i) => {
      const h = v(d) > 0 ? Math.max(2, (v(d) / max) * 120) : 0;
      const x = PAD + i * bw;
      const label = unit === 'usd' ? moneyText(d) : `${fmtTokens(d.tokens)} tokens`;
      return (
        `<g><title>${esc(`${d.day}: ${label}, ${plural(d.loops, 'loop')}`)}</title>` +
        `${h ? `<rect x="${(x + 2).toFixed(1)}" y="${(140 - h).toFixed(1)}" width="${(bw - 4).toFixed(1)}" height="${h.toFixed(1)}"/>` : ''}` +
        `<text x="${(x + bw / 2).toFixed(1)}" y="156" text-anchor="middle">${esc(d.day.slice(5))}</text></g>`
      );
    })
    .join('');
  return `<svg class="days" viewBox="0 0 ${W} 160" width="100%" role="img" aria-label="loop cost per day">${bars}</svg>`;
}

const CSS =
  `
:root{color-scheme:light ` +
  `dark;--fg:#1b1f24;--dim:#5b6470;--bg:#fff;--card:#f4f6f8;--line:#d8dee4;--red:#c62828;--amber:#b26a00;--green:#2e7d32;--blue:#1f5fbf}
@media ` +
  `(prefers-color-scheme:dark){:root{--fg:#e6edf3;--dim:#9aa4ae;--bg:#0d1117;--card:#161b22;--line:#30363d;--red:#ff7b72;--amber:#e3b341;--green:#7ee787;--blue:#79c0ff}}
*{box-sizing:border-box}body{margin:0;padding:24px;font:14px/1.45 ` +
  `system-ui,-apple-system,"Segoe ` +
  `UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:980px;margin:0 ` +
  `auto}h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 ` +
  `8px}.dim{color:var(--dim)}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:12px;margin:16px ` +
  `0}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px ` +
  `14px}.card b{display:block;font-size:24px;margin-top:2px}
.card.bad b{color:var(--red)}.card.good ` +
  `b{color:var(--green)}.card small{color:var(--dim)}
.loop{border:1px solid ` +
  `var(--line);border-radius:8px;padding:10px 12px;margin:10px 0}.loop ` +
  `code{font-size:13px;word-break:break-all}
svg text{font-size:10px;fill:var(--dim)}.timeline ` +
  `.axis{stroke:var(--line)}.timeline .calls{stroke:var(--blue);stroke-width:1.2;fill:none}
.warn ` +
  `line{stroke:var(--amber);stroke-dasharray:3 2}.refuse ` +
  `line{stroke:var(--red);stroke-width:2}.handoff line{stroke:var(--red);stroke-dasharray:1 2}
.warn ` +
  `text{fill:var(--amber)}.refuse text,.handoff text{fill:var(--red)}.days ` +
  `rect{fill:var(--red)}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{text-align:left;padding:6px ` +
  `8px;border-bottom:1px solid ` +
  `var(--line);vertical-align:top}
td.n,th.n{text-align:right;white-space:nowrap}td.x{color:var(--dim);max-width:320px}footer{margin-top:28px;color:var(--dim);font-size:12px}
`;

function card(key: string, label: string, value: string, note: string, tone: string): string {
  return `<div class="card ${tone}" data-k="${key}">${esc(label)}<b>${esc(value)}</b><small>${esc(note)}</small></div>`;
}

function loopBlock(l: Loop, i: number): string {
  const what = l.kind === 'cycle' ? `cycle of ${l.commands.length}, ×${l.repeats}` : `×${l.repeats} identical`;
  const head =
    `${TOOL_NAMES[l.tool] ?? l.tool} · ${what}${l.ms !== undefined ? ` over ${fmtMs(l.ms)}` : ''} · ` +
    `${moneyText(l)} · ${projectLabel(l.project)} · session ${shortId(l.session)}`;
  return (
    `<div class="loop"><div><b>${i + 1}.</b> <code>${esc(clip(l.command, 200))}</code></div><div ` +
    `class="dim">${esc(head)}</div>${timelineSvg(l, i)}</div>`
  );
}

/** The four cards: loops, time, money in loops, and what the guard would have saved. */
function cardsHtml(r: AuditReport): string {
  const t = r.totals;
  const unknown = r.prices.unknownModels.length ? `; no price for ${r.prices.unknownModels.join(', ')}` : '';
  // The cards' big figures are money where it is known; what it leaves out is in the small print under them.
  const money = t.usd !== null ? fmtUsd(t.usd) : moneyText(t);
  const moneyNote = [
    t.unpriced ? `+ ${plural(t.unpriced, 'request')} of models with no price` : '',
    t.unrecorded ? `+ ${plural(t.unrecorded, 'request')} with no usage recorded` : '',
    `estimate at list prices${unknown}`,
  ]
    .filter(Boolean)
    .join('; ');
  const saved = t.saved.usd !== null ? fmtUsd(t.saved.usd) : plural(t.saved.requests, 'model request');
  const savedNote = [
    t.saved.usd !== null ? plural(t.saved.requests, 'model request') : '',
    t.saved.ms ? fmtMs(t.saved.ms) : '',
  ]
    .filter(Boolean)
    .join(', ');
  return (
    `<section class="cards">
` +
    `${card('loops', 'Loops', fmtInt(t.loops), `${plural(t.requests, 'model request')} inside them`, 'bad')}` +
    `
` +
    `${card('time', 'Time in loops', t.ms ? fmtMs(t.ms) : 'not recorded', 'first to last identical call', 'bad')}` +
    `
${card('money', 'Money in loops', money, moneyNote, 'bad')}
` +
    `${card('saved', 'The guard would have saved', saved, savedNote || 'everything after its refusal', 'good')}` +
    `
</section>
`
  );
}

/** The table of the loops shown, one row each. */
function loopRows(loops: readonly Loop[]): string {
  return loops
    .map(
      (l, i) =>
        `<tr><td class="n">${i + 1}</td><td><code>${esc(clip(l.command, 120))}</code><div class="dim">` +
        `${esc(TOOL_NAMES[l.tool] ?? l.tool)}</div></td><td class="n">${fmtInt(l.attempts)}</td><td ` +
        `class="n">${l.ms !== undefined ? fmtMs(l.ms) : '—'}</td><td class="n">${esc(moneyText(l))}</td><td ` +
        `class="x">${esc(clip(l.excerpt, 140)) || '<span class="dim">—</span>'}</td></tr>`,
    )
    .join('');
}

/** The table of the 20 sessions that lost the most. */
function sessionRows(t: AuditReport['totals']): string {
  return t.bySession
    .slice(0, 20)
    .map(
      (s) =>
        `<tr><td>${esc(TOOL_NAMES[s.tool] ?? s.tool)}</td><td><code>${esc(shortId(s.session))}` +
        `</code></td><td>${esc(clip(projectLabel(s.project), 60))}</td><td class="n">${fmtInt(s.loops)}` +
        `</td><td class="n">${esc(moneyText(s))}</td><td class="n">` +
        `${s.sessionUsd !== null ? fmtUsd(s.sessionUsd) : '—'}</td></tr>`,
    )
    .join('');
}

/** The table of the 20 projects that lost the most. */
function projectRows(t: AuditReport['totals']): string {
  return t.byProject
    .filter((p) => p.loops > 0)
    .slice(0, 20)
    .map(
      (p) =>
        `<tr><td>${esc(clip(projectLabel(p.project), 80))}</td><td class="n">${fmtInt(p.sessions)}</td><td ` +
        `class="n">${fmtInt(p.loops)}</td><td class="n">${esc(moneyText(p))}</td><td class="n">` +
        `${p.ms ? fmtMs(p.ms) : '—'}</td></tr>`,
    )
    .join('');
}

/** The page's body when there are loops: the cards, each loop's timeline, the cost per day, the three tables. */
function loopsBody(r: AuditReport): string {
  const t = r.totals;
  const loops = r.loops.slice(0, HTML_LOOPS);
  const rows = loopRows(loops);
  const sessions = sessionRows(t);
  const projects = projectRows(t);
  return (
    cardsHtml(r) +
    `${t.tokens > 0 ? `<p class="dim">Tokens in loops: ${esc(fmtTokens(t.tokens))} (${esc(kindsText(t.tokenKinds))}).</p>` : ''}` +
    `
<h2>Loops, worst first</h2>
<p class="dim">Each tick is one call of the same command with the same ` +
    `result; the dashed amber line is where the guard would warn, the red line where it would refuse, ` +
    `the dotted red line where it would hand the turn back.</p>
<div id="loops">` +
    `${loops.map(loopBlock).join('')}</div>
` +
    `${r.loops.length > loops.length ? `<p class="dim">… ${fmtInt(r.loops.length - loops.length)} more loops (--json lists them all).</p>` : ''}` +
    `
<h2>Loop cost per day</h2>
${perDaySvg(r)}
<h2>The loops</h2>
<table><thead><tr><th ` +
    `class="n">#</th><th>Command</th><th class="n">Calls</th><th class="n">Duration</th><th ` +
    `class="n">Money</th><th>Repeated result</th></tr></thead><tbody>${rows}` +
    `</tbody></table>
<h2>Sessions with ` +
    `loops</h2>
<table><thead><tr><th>Tool</th><th>Session</th><th>Project</th><th ` +
    `class="n">Loops</th><th class="n">Money in loops</th><th class="n">Whole ` +
    `session</th></tr></thead><tbody>${sessions}</tbody></table>
<h2>Projects, by money ` +
    `lost</h2>
<table><thead><tr><th>Project</th><th class="n">Sessions</th><th class="n">Loops</th><th ` +
    `class="n">Money</th><th class="n">Time</th></tr></thead><tbody>${projects}</tbody></table>`
  );
}

/** The whole page. `r` is already redacted when --redact was given. */
export function htmlReport(r: AuditReport, generatedAt: string): string {
  const t = r.totals;
  const where = r.scope.project === null ? 'all projects' : r.scope.project;
  const since = r.scope.since ? ` since ${r.scope.since.slice(0, 10)}` : '';
  const body =
    t.loops === 0
      ? `<p>${esc(`${plural(t.sessions, 'session')} read. No loops found.`)}</p>` +
        `${r.elsewhere?.commands.length ? `<p>${esc(`${plural(r.elsewhere.sessions, 'session')} of other projects are on this machine:`)} <code>${esc(r.elsewhere.commands[0] as string)}</code></p>` : ''}`
      : loopsBody(r);
  return (
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" ` +
    `content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" ` +
    `content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>` +
    `${esc(`Loop audit: ${where}${since}`)}</title><style>${CSS}</style></head>
<body><main>
<h1>` +
    `${esc(`Agent loops: ${where}${since}`)}</h1>
<p class="dim">` +
    `${esc(`${plural(t.sessions, 'session')}, ${plural(t.shellCalls, 'shell call')}, ${plural(t.allRequests, 'model request')} read by create-loop-guard audit, judged by the guard's own rules.`)}` +
    `</p>
${body}
<footer>` +
    `${esc(`Generated ${generatedAt} from ${plural(r.read.files, 'transcript')} (${(r.read.bytes / 1e6).toFixed(1)} MB) on this machine; nothing left it. Money: list prices checked ${r.prices.checked}${r.prices.override ? ', with a price file first' : ''}; subscriptions bill differently.`)}` +
    `</footer>
</main></body></html>
`
  );
}
