// The readers doctor picks by a record's `replay.answers`, against what each tool's adapter really prints: a record that
// names the wrong reader or hand-off mode (say, after an adapter starts rendering a real stop) fails here, not in the field.
import { describe, expect, it } from 'vitest';
import { READERS, type Who } from '../../src/doctor/answers.ts';
import { render } from '../../src/guard/adapters/index.ts';
import type { OutputFormat } from '../../src/guard/adapters/types.ts';
import type { Decision } from '../../src/guard/core/types.ts';
import { TOOL_NAMES, TOOLS } from '../../src/tools/index.ts';

const REPLAYED = TOOL_NAMES.filter((t) => TOOLS[t].doctor.replay !== undefined);
const note = { command: 'npm test', tried: [] } as unknown as Extract<Decision, { action: 'handoff' }>['note'];

describe.each(REPLAYED)('%s: its reader reads its adapter', (tool) => {
  const facts = TOOLS[tool].doctor.replay;
  if (!facts) throw new Error('no replay facts');
  const read = READERS[facts.answers];
  const who: Who = { label: TOOLS[tool].label, preEvent: facts.pre.event, stops: facts.handoff === 'stops' };
  const out = (event: string, d: Decision) => render(tool as OutputFormat, event, d);

  it('allow is silent on every step', () => {
    expect(read(out(facts.pre.event, { action: 'allow' }), 'pre', facts.pre.event, who)).toEqual({ kind: 'silent' });
    expect(read(out(facts.post.event, { action: 'allow' }), 'post', facts.post.event, who)).toEqual({ kind: 'silent' });
    expect(read(out(facts.turn.event, { action: 'allow' }), 'turn', facts.turn.event, who)).toEqual({ kind: 'silent' });
  });
  it('a warning on the post event and a refusal on the pre event', () => {
    expect(
      read(out(facts.post.event, { action: 'warn', message: 'loop-guard: w' }), 'post', facts.post.event, who),
    ).toEqual({ kind: 'warn', text: 'loop-guard: w' });
    expect(
      read(
        out(facts.pre.event, { action: 'deny', message: 'loop-guard: d', rule: 'repeat' }),
        'pre',
        facts.pre.event,
        who,
      ),
    ).toEqual({ kind: 'deny', text: 'loop-guard: d' });
  });
  it(`the hand-off reads as the record says (${facts.handoff})`, () => {
    const handoff: Decision = {
      action: 'handoff',
      message: 'loop-guard: npm test was not run, and this turn stops here',
      rule: 'repeat',
      stopReason: 'loop-guard stopped the agent',
      note,
    };
    const r = read(out(facts.pre.event, handoff), 'pre', facts.pre.event, who);
    if (facts.stop) {
      // The run ends from a later event: the pre answer lets the call reach it (Copilot) or refuses it (Qwen), and that
      // event's answer carries the record's stop fields.
      expect(['silent', 'deny']).toContain(r.kind);
      expect(JSON.parse(out(facts.stop.event, handoff))).toMatchObject(facts.stop.answer);
    } else expect(r.kind).toBe(facts.handoff === 'stops' ? 'handoff' : 'deny');
  });
});

describe('readers catch what a tool would get wrong', () => {
  const who: Who = { label: 'Tool', preEvent: 'PreToolUse', stops: false };
  it('hook-specific-output-only rejects any other top-level field, naming the tool', () => {
    const r = READERS['hook-specific-output-only'](
      JSON.stringify({ continue: true, hookSpecificOutput: {} }),
      'post',
      'PostToolUse',
      who,
    );
    expect(r).toEqual({
      kind: 'bad',
      why: 'answered PostToolUse with fields Tool rejects (continue, hookSpecificOutput)',
    });
  });
  it('hook-specific-output: continue:false outside the pre event is a mistake', () => {
    expect(
      READERS['hook-specific-output'](JSON.stringify({ continue: false, stopReason: 'x' }), 'post', 'PostToolUse', who),
    ).toEqual({ kind: 'bad', why: 'answered PostToolUse with continue:false outside PreToolUse' });
  });
  it('decision-or-context: a stop is a hand-off only for a tool whose record says it stops', () => {
    const stop = JSON.stringify({ continue: false, stopReason: 'loop-guard: stop' });
    expect(READERS['decision-or-context'](stop, 'pre', 'BeforeTool', who).kind).toBe('bad');
    expect(READERS['decision-or-context'](stop, 'pre', 'BeforeTool', { ...who, stops: true })).toEqual({
      kind: 'handoff',
      text: 'loop-guard: stop',
    });
    expect(READERS['decision-or-context'](stop, 'post', 'AfterTool', { ...who, stops: true }).kind).toBe('bad');
    const both = JSON.stringify({ decision: 'deny', reason: 'loop-guard: r', continue: false, stopReason: 's' });
    expect(READERS['decision-or-context'](both, 'pre', 'BeforeTool', { ...who, stops: true })).toEqual({
      kind: 'handoff',
      text: 'loop-guard: r',
    });
  });
  it('permission-fields: refusing the user prompt is a mistake', () => {
    expect(
      READERS['permission-fields'](JSON.stringify({ continue: false }), 'turn', 'beforeSubmitPrompt', who),
    ).toEqual({ kind: 'bad', why: 'refused the user prompt (continue: false)' });
  });
});
