// Numbers, money and names as the audit reports print them (the terminal report and the HTML page share these).
import type { Money } from './cost.ts';
import type { Tokens } from './events.ts';

export const TOOL_NAMES: Readonly<Record<string, string>> = {
  claude: 'Claude Code',
  codex: 'Codex',
  opencode: 'OpenCode',
  gemini: 'Gemini CLI',
  copilot: 'Copilot CLI',
  qwen: 'Qwen Code',
  cline: 'Cline',
  kilo: 'Kilo',
};

/** 12,345 as en-US writes it. An integer is grouped here, as ICU groups it: loading ICU's number format for it cost
 * ~12 ms of every report. */
export function fmtInt(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
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

/** Dollars: cents from a dollar up, two significant digits below a cent (a short loop costs fractions of one). */
export function fmtUsd(n: number): string {
  if (n >= 1000) return `$${fmtInt(Math.round(n))}`;
  if (n >= 0.01 || n === 0) return `$${n.toFixed(2)}`;
  return `$${Number(n.toPrecision(2))}`;
}

/** "1 session", "2 sessions". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${fmtInt(n)} ${n === 1 ? word : many}`;
}

/** A session id cut to its first 8 characters; a redaction marker (`<session-1>`) stays whole. */
export function shortId(id: string): string {
  return id.startsWith('<') ? id : id.slice(0, 8);
}

/** The project as the session recorded it (its working directory). */
export function projectLabel(p: string): string {
  return p || 'no project recorded';
}

export function clip(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * Money as said aloud: "$1.20", "$1.20 + 3 requests not priced", "not priced (unknown model)", "usage not recorded".
 * What is unknown is said so, never shown as $0.
 */
export function moneyText(m: Money): string {
  const gaps = [
    m.unpriced > 0 ? `${plural(m.unpriced, 'request')} of an unknown model` : '',
    m.unrecorded > 0 ? `${plural(m.unrecorded, 'request')} with no usage recorded` : '',
  ].filter(Boolean);
  if (m.usd !== null) return gaps.length ? `${fmtUsd(m.usd)} + ${gaps.join(' + ')}` : fmtUsd(m.usd);
  if (m.unpriced > 0 && m.unrecorded === 0) return 'not priced (unknown model)';
  if (m.unpriced === 0 && m.unrecorded > 0) return 'usage not recorded';
  return gaps.length ? `not priced (${gaps.join(', ')})` : fmtUsd(0);
}

/** "390 tokens (input 100 · cache read 200 · cache write 50 · output 40)". */
export function kindsText(k: Tokens): string {
  return (
    `input ${fmtTokens(k.input)} · cache read ${fmtTokens(k.cacheRead)} · cache write ` +
    `${fmtTokens(k.cacheWrite)} · output ${fmtTokens(k.output)}`
  );
}
