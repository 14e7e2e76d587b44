// The judgment scorer: replays every labelled sequence of test/fixtures/judgment/ through the guard, in process,
// each with its own empty state dir, and scores what the guard said against the labels.
// Shared by `npm run bench:judgment` (bench/judgment.mjs, the built guard) and test/guard/judgment.test.ts (the source).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = fileURLToPath(new URL('../test/fixtures/judgment/', import.meta.url));

/** The goals of issue 9, item 8. */
export const GOALS = {
  workRefusals: 0,
  /** warned legitimate work, as a share of work sequences (each one must carry a justification) */
  workWarnShare: 0.02,
  loopsRefused: 0.95,
  loopsWarned: 0.95,
};

export function loadCorpus(dir = CORPUS_DIR) {
  const seqs = [];
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .sort()) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) if (line.trim()) seqs.push(JSON.parse(line));
  }
  return seqs;
}

const PRE_EVENTS = new Set(['PreToolUse', 'preToolUse']);
/** The project directory every payload of the corpus names. */
const PAYLOAD_PROJECT = '/home/dev/proj';

/** What a hook's stdout says: a refusal, a warning (text added to the model's context), or nothing. */
export function readHookAnswer(stdout, eventName) {
  if (!stdout?.trim().startsWith('{')) return { deny: false, warn: null };
  let o;
  try {
    o = JSON.parse(stdout);
  } catch {
    return { deny: false, warn: null };
  }
  const h = o.hookSpecificOutput ?? {};
  const deny =
    PRE_EVENTS.has(eventName) && (h.permissionDecision === 'deny' || o.permission === 'deny' || o.decision === 'block');
  // Context on a call that runs (the note on a command the user asked for) is a note beside it, not a loop warning.
  if (PRE_EVENTS.has(eventName) && !deny) return { deny: false, warn: null };
  const warn =
    h.additionalContext ??
    o.additional_context ??
    (!PRE_EVENTS.has(eventName) && o.decision === 'block' ? o.reason : null) ??
    null;
  return { deny, warn: typeof warn === 'string' && warn ? warn : null };
}

/**
 * Replays one sequence. impl: { runHook(stdin, toolArg, env) → stdout, LoopGuard(ctx) → hooks } (the OpenCode plugin).
 * Returns every flag the guard raised: { step, attempt, kind: 'warn'|'refuse', text }.
 */
export async function replaySequence(seq, impl, stateRoot) {
  const stateDir = mkdtempSync(join(stateRoot, 's-'));
  // A sequence that needs the project's files (a package.json the hang rules read) gets a real directory for the
  // payloads' cwd; the others keep a cwd that does not exist, so only their events count.
  let projectDir = PAYLOAD_PROJECT;
  if (seq.files) {
    projectDir = mkdtempSync(join(stateRoot, 'p-'));
    for (const [name, text] of Object.entries(seq.files)) writeFileSync(join(projectDir, name), text);
    seq = JSON.parse(JSON.stringify(seq).replaceAll(`"${PAYLOAD_PROJECT}`, `"${projectDir}`));
  }
  const flags = [];
  let lastAttempt = 0;
  const flag = (i, step, kind, text) =>
    flags.push({ step: i + 1, attempt: step.attempt ?? lastAttempt, kind, text: String(text).slice(0, 300) });
  try {
    if (seq.tool === 'opencode') {
      // The plugin reads its settings and state location when OpenCode creates it, so one fresh instance per sequence.
      const saved = process.env.LOOP_GUARD_STATE_DIR;
      process.env.LOOP_GUARD_STATE_DIR = stateDir;
      let aborted = 0;
      const ctx = {
        directory: projectDir,
        worktree: projectDir,
        project: {},
        serverUrl: 'http://127.0.0.1:4096',
        client: {
          session: {
            abort: async () => {
              aborted += 1;
              return { data: true };
            },
          },
        },
      };
      try {
        const hooks = await impl.LoopGuard(ctx);
        for (const [i, step] of seq.steps.entries()) {
          if (step.attempt) lastAttempt = step.attempt;
          for (const ev of step.events) {
            const fn = hooks[ev.hook];
            if (typeof fn !== 'function') continue;
            const input = structuredClone(ev.input);
            const output = structuredClone(ev.output);
            const abortsBefore = aborted;
            if (ev.hook === 'tool.execute.before') {
              try {
                await fn(input, output);
              } catch (err) {
                flag(i, step, 'refuse', err instanceof Error ? err.message : err);
                break; // the command did not run: no after event
              }
            } else {
              const before = output.output;
              try {
                await fn(input, output);
              } catch {
                // a throwing after-hook is OpenCode's problem, not a verdict
              }
              if (typeof output.output === 'string' && output.output !== before)
                flag(i, step, 'warn', output.output.slice(String(before ?? '').length));
            }
            if (aborted > abortsBefore) flag(i, step, 'refuse', 'session aborted');
          }
        }
      } finally {
        if (saved === undefined) delete process.env.LOOP_GUARD_STATE_DIR;
        else process.env.LOOP_GUARD_STATE_DIR = saved;
      }
    } else {
      const env = { LOOP_GUARD_STATE_DIR: stateDir, HOME: stateDir, PATH: process.env.PATH ?? '/usr/bin:/bin' };
      for (const [i, step] of seq.steps.entries()) {
        if (step.attempt) lastAttempt = step.attempt;
        for (const ev of step.events) {
          const name = ev.hook_event_name;
          const answer = readHookAnswer(impl.runHook(JSON.stringify(ev), seq.tool, env), name);
          if (answer.warn) flag(i, step, 'warn', answer.warn);
          if (answer.deny) {
            flag(i, step, 'refuse', 'denied');
            break; // the command did not run: no post event
          }
        }
      }
    }
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
  return flags;
}

/** One sequence's verdict against its label. */
export function judge(seq, flags) {
  const refusals = flags.filter((f) => f.kind === 'refuse');
  const warnings = flags.filter((f) => f.kind === 'warn');
  if (seq.label === 'work') {
    const note = seq.expect?.note;
    const refused = refusals.length > 0;
    const warned = note ? warnings.length > note : warnings.length > 0;
    const missingNote = note ? warnings.length < note : false;
    const reasons = [];
    if (refused) reasons.push(`refused at step ${refusals[0].step}`);
    if (warned) reasons.push(`${warnings.length} warning(s), first at step ${warnings[0].step}`);
    if (missingNote) reasons.push(`expected ${note} note, got ${warnings.length}`);
    return {
      ok: reasons.length === 0,
      refused,
      warned,
      justified: warned && Boolean(seq.justification),
      missingNote,
      reasons,
    };
  }
  const { warnBy, refuseBy } = seq.expect;
  const firstFlag = flags.length ? Math.min(...flags.map((f) => f.attempt)) : null;
  const firstRefusal = refusals.length ? Math.min(...refusals.map((f) => f.attempt)) : null;
  const warnedInTime = firstFlag !== null && firstFlag <= warnBy;
  const refusedInTime = firstRefusal !== null && firstRefusal <= refuseBy;
  const reasons = [];
  if (!warnedInTime)
    reasons.push(firstFlag === null ? 'never flagged' : `first flag at attempt ${firstFlag} (goal ≤ ${warnBy})`);
  if (!refusedInTime)
    reasons.push(firstRefusal === null ? 'never refused' : `refused at attempt ${firstRefusal} (goal ≤ ${refuseBy})`);
  return { ok: warnedInTime && refusedInTime, warnedInTime, refusedInTime, firstFlag, firstRefusal, reasons };
}

/** Replays the whole corpus and aggregates per class and overall. */
export async function scoreCorpus(impl, { dir = CORPUS_DIR, filter } = {}) {
  const seqs = loadCorpus(dir).filter((s) => !filter || filter(s));
  const stateRoot = mkdtempSync(join(tmpdir(), 'lg-judgment-'));
  mkdirSync(stateRoot, { recursive: true });
  const results = [];
  try {
    for (const seq of seqs) {
      const flags = await replaySequence(seq, impl, stateRoot);
      results.push({ seq, flags, verdict: judge(seq, flags) });
    }
  } finally {
    rmSync(stateRoot, { recursive: true, force: true });
  }
  const classes = new Map();
  for (const r of results) {
    const c = classes.get(r.seq.class) ?? {
      name: r.seq.class,
      label: r.seq.label,
      n: 0,
      refused: 0,
      warned: 0,
      justified: 0,
      noteOk: 0,
      notes: 0,
      warnedInTime: 0,
      refusedInTime: 0,
      failing: [],
    };
    c.n += 1;
    const v = r.verdict;
    if (r.seq.label === 'work') {
      if (v.refused) c.refused += 1;
      if (v.warned) c.warned += 1;
      if (v.justified) c.justified += 1;
      if (r.seq.expect?.note) {
        c.notes += 1;
        if (!v.refused && !v.warned && !v.missingNote) c.noteOk += 1;
      }
    } else {
      if (v.warnedInTime) c.warnedInTime += 1;
      if (v.refusedInTime) c.refusedInTime += 1;
    }
    if (!v.ok) c.failing.push({ id: r.seq.id, reasons: v.reasons });
    classes.set(r.seq.class, c);
  }
  const all = [...classes.values()];
  const sum = (label, k) => all.filter((c) => c.label === label).reduce((n, c) => n + c[k], 0);
  const work = sum('work', 'n');
  const loops = sum('loop', 'n');
  const overall = {
    sequences: results.length,
    work,
    loops,
    workRefused: sum('work', 'refused'),
    workWarned: sum('work', 'warned'),
    workWarnedUnjustified: sum('work', 'warned') - sum('work', 'justified'),
    notes: sum('work', 'notes'),
    noteOk: sum('work', 'noteOk'),
    loopsWarnedInTime: sum('loop', 'warnedInTime'),
    loopsRefusedInTime: sum('loop', 'refusedInTime'),
  };
  overall.workWarnShare = work ? overall.workWarned / work : 0;
  overall.loopsWarnedShare = loops ? overall.loopsWarnedInTime / loops : 1;
  overall.loopsRefusedShare = loops ? overall.loopsRefusedInTime / loops : 1;
  overall.goals = {
    workRefusals: overall.workRefused <= GOALS.workRefusals,
    workWarnings: overall.workWarnShare <= GOALS.workWarnShare && overall.workWarnedUnjustified === 0,
    loopsRefused: overall.loopsRefusedShare >= GOALS.loopsRefused,
    loopsWarned: overall.loopsWarnedShare >= GOALS.loopsWarned,
    thrashNote: overall.noteOk === overall.notes,
  };
  return { classes: all, overall, results };
}

const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : '—');

/** The printed report: per class, overall against the goals, and the failing sequences. */
export function formatReport({ classes, overall }, { failing = true } = {}) {
  const lines = [];
  const row = (cells) => `| ${cells.join(' | ')} |`;
  lines.push(
    row([
      'class',
      'label',
      'n',
      'refused (work)',
      'warned (work)',
      'flagged by goal (loops)',
      'refused by goal (loops)',
    ]),
  );
  lines.push(row(['---', '---', '---:', '---:', '---:', '---:', '---:']));
  const order = (c) => (c.label === 'work' ? 0 : 1);
  for (const c of [...classes].sort((a, b) => order(a) - order(b))) {
    if (c.label === 'work') {
      const warned = c.notes ? `${c.warned} (note ok ${c.noteOk}/${c.notes})` : String(c.warned);
      lines.push(row([c.name, 'work', String(c.n), String(c.refused), warned, '', '']));
    } else {
      lines.push(
        row([
          c.name,
          'loop',
          String(c.n),
          '',
          '',
          `${c.warnedInTime} (${pct(c.warnedInTime, c.n)})`,
          `${c.refusedInTime} (${pct(c.refusedInTime, c.n)})`,
        ]),
      );
    }
  }
  const mark = (ok) => (ok ? 'met' : 'NOT met');
  lines.push('');
  lines.push(`${overall.sequences} sequences: ${overall.work} work, ${overall.loops} loop`);
  lines.push(
    `refusals on legitimate work:   ${overall.workRefused} of ${overall.work}  (goal 0)  ${mark(overall.goals.workRefusals)}`,
  );
  lines.push(
    `warnings on legitimate work:   ${overall.workWarned} of ${overall.work} = ${pct(overall.workWarned, overall.work)}, unjustified ${overall.workWarnedUnjustified}  (goal ≤ 2%, each justified)  ${mark(overall.goals.workWarnings)}`,
  );
  lines.push(
    `thrash: exactly one note:      ${overall.noteOk} of ${overall.notes}  (goal all)  ${mark(overall.goals.thrashNote)}`,
  );
  lines.push(
    `loops warned by the 3rd:       ${overall.loopsWarnedInTime} of ${overall.loops} = ${pct(overall.loopsWarnedInTime, overall.loops)}  (goal ≥ 95%)  ${mark(overall.goals.loopsWarned)}`,
  );
  lines.push(
    `loops refused by the 5th:      ${overall.loopsRefusedInTime} of ${overall.loops} = ${pct(overall.loopsRefusedInTime, overall.loops)}  (goal ≥ 95%)  ${mark(overall.goals.loopsRefused)}`,
  );
  lines.push(
    '  (polls: warned by the 5th, refused by the 8th; waits for a person: refused at the 1st; see test/fixtures/judgment/README.md)',
  );
  if (failing) {
    lines.push('');
    lines.push('failing sequences by class:');
    for (const c of classes) {
      if (!c.failing.length) continue;
      lines.push(`  ${c.name} (${c.failing.length}/${c.n}):`);
      for (const f of c.failing) lines.push(`    ${f.id}: ${f.reasons.join('; ')}`);
    }
  }
  return lines.join('\n');
}

/**
 * How many normalization rules fired per class: each post result of the corpus (read by the guard's own adapter, or
 * OpenCode's after-hook output) normalized with a collector. impl: { parseHook(tool, payload, env), normalizeOutput }.
 */
export function rulesFiredByClass(impl, { dir = CORPUS_DIR } = {}) {
  const byClass = new Map();
  for (const seq of loadCorpus(dir)) {
    const c = byClass.get(seq.class) ?? { name: seq.class, label: seq.label, results: 0, firings: 0, rules: new Map() };
    for (const step of seq.steps) {
      if (step.kind !== 'shell') continue;
      for (const ev of step.events) {
        let output;
        let command = step.command;
        if (seq.tool === 'opencode') {
          if (ev.hook !== 'tool.execute.after') continue;
          output = ev.output?.output;
        } else {
          const parsed = impl.parseHook(seq.tool, ev, {});
          if (parsed.event?.kind !== 'post') continue;
          output = parsed.event.output;
          command = parsed.event.command;
        }
        if (typeof output !== 'string') continue;
        const fired = [];
        impl.normalizeOutput(output, { command, fired });
        c.results += 1;
        c.firings += fired.length;
        for (const r of fired) c.rules.set(r, (c.rules.get(r) ?? 0) + 1);
      }
    }
    byClass.set(seq.class, c);
  }
  return [...byClass.values()];
}

/** The rules-fired table: per class, results normalized, distinct rules that changed one, and the rules by count. */
export function formatRulesFired(classes) {
  const row = (cells) => `| ${cells.join(' | ')} |`;
  const lines = [row(['class', 'label', 'results', 'rules fired', 'firings', 'rules (times)'])];
  lines.push(row(['---', '---', '---:', '---:', '---:', '---']));
  const order = (c) => (c.label === 'work' ? 0 : 1);
  for (const c of [...classes].sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name))) {
    const rules = [...c.rules].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    lines.push(
      row([
        c.name,
        c.label,
        String(c.results),
        String(rules.length),
        String(c.firings),
        rules.map(([r, n]) => `${r}×${n}`).join(', ') || '—',
      ]),
    );
  }
  return lines.join('\n');
}
