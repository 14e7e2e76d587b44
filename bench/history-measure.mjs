// What a folder of transcripts holds, per tool: the figures bench/history-shape.mjs is tuned to (shell calls per MB,
// line and result sizes, share of read results). Works on a real history too (a HOME, ~/.claude/projects).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHistory } from './history-shape.mjs';

/** What a folder of transcripts holds, per tool: the figures SHAPE is tuned to (works on a real ~/.claude too). */
export function measure(dir) {
  const stats = {};
  const walk = (d) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.jsonl')) file(p);
    }
  };
  const pct = (xs, q) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))] : 0);
  function file(p) {
    const text = readFileSync(p, 'utf8');
    const first = text.slice(0, text.indexOf('\n'));
    const tool = first.includes('"session_meta"') ? 'codex' : 'claude';
    const s = (stats[tool] ??= {
      files: 0,
      bytes: 0,
      lines: [],
      shell: 0,
      results: [],
      shellResults: [],
      readBytes: 0,
      resultBytes: 0,
    });
    s.files++;
    s.bytes += Buffer.byteLength(text);
    const calls = new Map();
    for (const line of text.split('\n')) {
      if (!line) continue;
      s.lines.push(Buffer.byteLength(line));
      let r;
      try {
        r = JSON.parse(line);
      } catch {
        continue;
      }
      if (tool === 'claude') {
        const c = r.message?.content;
        if (!Array.isArray(c)) continue;
        for (const b of c) {
          if (b.type === 'tool_use') calls.set(b.id, b.name);
          if (b.type === 'tool_result') {
            const name = calls.get(b.tool_use_id);
            const n = Buffer.byteLength(typeof b.content === 'string' ? b.content : JSON.stringify(b.content ?? ''));
            s.results.push(n);
            s.resultBytes += n;
            if (name === 'Bash') {
              s.shell++;
              s.shellResults.push(n);
            } else if (name === 'Read' || name === 'Grep' || name === 'Glob') s.readBytes += n;
          }
        }
      } else if (r.type === 'response_item') {
        const p = r.payload ?? {};
        if (p.type === 'function_call') {
          let cmd = '';
          try {
            cmd = JSON.parse(p.arguments).cmd ?? '';
          } catch {}
          calls.set(p.call_id, cmd);
        }
        if (p.type === 'function_call_output' || p.type === 'custom_tool_call_output') {
          const n = Buffer.byteLength(typeof p.output === 'string' ? p.output : JSON.stringify(p.output ?? ''));
          s.results.push(n);
          s.resultBytes += n;
          const cmd = calls.get(p.call_id);
          if (cmd !== undefined) {
            s.shell++;
            s.shellResults.push(n);
            if (/^(sed -n|cat |rg |nl |head |tail |ls|grep )/.test(cmd)) s.readBytes += n;
          }
        }
      }
    }
  }
  walk(dir);
  const out = {};
  for (const [tool, s] of Object.entries(stats))
    out[tool] = {
      files: s.files,
      MB: +(s.bytes / 1e6).toFixed(1),
      shellCallsPerMB: +(s.shell / (s.bytes / 1e6)).toFixed(0),
      lineBytes: { median: pct(s.lines, 0.5), p90: pct(s.lines, 0.9), p99: pct(s.lines, 0.99) },
      shellResultBytes: { median: pct(s.shellResults, 0.5), p90: pct(s.shellResults, 0.9) },
      resultBytes: { median: pct(s.results, 0.5), p90: pct(s.results, 0.9) },
      readShareOfResultBytes: +(s.readBytes / Math.max(1, s.resultBytes)).toFixed(2),
      resultShareOfBytes: +(s.resultBytes / s.bytes).toFixed(2),
    };
  return out;
}

// `node bench/history-measure.mjs [DIR]`: measure DIR (a HOME, ~/.claude/projects, test/fixtures/transcripts), or a
// freshly generated 20 MB corpus.
if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2]) console.log(JSON.stringify(measure(process.argv[2]), null, 1));
  else {
    const home = mkdtempSync(join(tmpdir(), 'lg-shape-'));
    try {
      const r = writeHistory(home, Number(process.env.BENCH_AUDIT_MB ?? 20));
      console.log(
        `generated ${(r.bytes / 1e6).toFixed(1)} MB, ${r.shellCalls} shell calls, files ${JSON.stringify(r.files)}`,
      );
      console.log(JSON.stringify(measure(home), null, 1));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
}
