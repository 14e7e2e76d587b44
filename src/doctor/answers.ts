// Pure: how a tool reads a hook's stdout, one reader per answer format (tools name theirs in `doctor.replay.answers`).
// Each turns an answer into silent / warn / deny / handoff, or `bad` with what the tool would do wrong with it.
import type { AnswerFormat } from '../tools/index.ts';
import { type Obj, obj } from '../guard/json-value.ts';

export type Reading =
  | { kind: 'silent' }
  | { kind: 'warn'; text: string }
  | { kind: 'deny'; text: string }
  /** a refusal that also tells the tool to stop the turn (where the tool has a field for that) */
  | { kind: 'handoff'; text: string }
  | { kind: 'bad'; why: string };
export type Step = 'pre' | 'post' | 'turn';
/** `label` and `preEvent` name the tool and its pre-tool event in messages; `stops`: the record says its hand-off
 *  stops the turn (ReplayFacts.handoff), so a stop field on the pre event is a hand-off, not a mistake. */
export interface Who {
  label: string;
  preEvent: string;
  stops: boolean;
}
export type Reader = (stdout: string, step: Step, event: string, who: Who) => Reading;

function parseJson(text: string): Obj | string {
  try {
    const v = obj(JSON.parse(text));
    return v ?? 'printed JSON that is not an object';
  } catch {
    return `printed text that is not JSON: ${JSON.stringify(text.slice(0, 80))}`;
  }
}

/** hookSpecificOutput answers; `only` = the tool also rejects any other top-level field. */
function readHookSpecific(stdout: string, step: Step, event: string, who: Who, only: boolean): Reading {
  const out = stdout.trim();
  if (out === '') return { kind: 'silent' };
  // On the user-prompt event plain stdout is added to the model's context.
  if (step === 'turn')
    return {
      kind: 'bad',
      why: `printed ${JSON.stringify(out.slice(0, 80))} on ${event}, which the tool would add to the model's context`,
    };
  const parsed = parseJson(out);
  if (typeof parsed === 'string') return { kind: 'bad', why: `${parsed} on ${event}` };
  if (only && Object.keys(parsed).some((k) => k !== 'hookSpecificOutput')) {
    return {
      kind: 'bad',
      why: `answered ${event} with fields ${who.label} rejects (${Object.keys(parsed).join(', ')})`,
    };
  }
  // continue:false ends the turn from the pre event; anywhere else it would stop the agent for nothing.
  const stops = parsed.continue === false;
  if (stops && (step !== 'pre' || typeof parsed.stopReason !== 'string' || parsed.stopReason === '')) {
    return {
      kind: 'bad',
      why: `answered ${event} with continue:false ${step !== 'pre' ? `outside ${who.preEvent}` : 'without a stopReason'}`,
    };
  }
  const h = obj(parsed.hookSpecificOutput);
  if (!h) return { kind: 'silent' };
  if (h.hookEventName !== event)
    return {
      kind: 'bad',
      why: `answered ${event} with hookEventName ${JSON.stringify(h.hookEventName)}, which the tool rejects`,
    };
  if (h.permissionDecision === 'allow')
    return { kind: 'bad', why: 'answered permissionDecision "allow", which skips the permission prompt' };
  if (h.permissionDecision === 'deny') {
    const reason = h.permissionDecisionReason;
    if (step !== 'pre') return { kind: 'bad', why: `denied on ${event}` };
    if (typeof reason !== 'string' || reason === '')
      return { kind: 'bad', why: 'denied without a permissionDecisionReason' };
    return { kind: stops ? 'handoff' : 'deny', text: reason };
  }
  if (stops) return { kind: 'bad', why: 'stopped the turn without refusing the command, so it runs once more' };
  if (typeof h.additionalContext === 'string') return { kind: 'warn', text: h.additionalContext };
  return { kind: 'silent' };
}

function readPermissionFields(stdout: string, step: Step, event: string): Reading {
  const out = stdout.trim();
  if (out === '') return { kind: 'silent' };
  const parsed = parseJson(out);
  if (typeof parsed === 'string') return { kind: 'bad', why: `${parsed} on ${event}` };
  if (step === 'turn' && parsed.continue === false)
    return { kind: 'bad', why: 'refused the user prompt (continue: false)' };
  if (parsed.permission === 'deny') {
    if (step !== 'pre') return { kind: 'bad', why: `denied on ${event}` };
    const msg = parsed.agent_message;
    if (typeof msg !== 'string' || msg === '')
      return { kind: 'bad', why: 'denied without an agent_message for the model' };
    // No field ends the turn from the pre event: the hand-off tells the person why in user_message.
    const user = typeof parsed.user_message === 'string' ? parsed.user_message : '';
    return { kind: user.includes('stopped the agent') ? 'handoff' : 'deny', text: msg };
  }
  if (typeof parsed.additional_context === 'string') return { kind: 'warn', text: parsed.additional_context };
  return { kind: 'silent' };
}

/** A deny is a top-level decision or hookSpecificOutput's; a warning is a top-level or hookSpecificOutput
 * additionalContext. */
function readDecisionOrContext(stdout: string, step: Step, event: string, who: Who): Reading {
  const out = stdout.trim();
  if (out === '') return { kind: 'silent' };
  const parsed = parseJson(out);
  if (typeof parsed === 'string') return { kind: 'bad', why: `${parsed} on ${event}` };
  const h = obj(parsed.hookSpecificOutput);
  const denyReason =
    parsed.decision === 'deny'
      ? parsed.reason
      : h?.permissionDecision === 'deny'
        ? h.permissionDecisionReason
        : undefined;
  if (parsed.decision === 'deny' || h?.permissionDecision === 'deny') {
    if (step !== 'pre') return { kind: 'bad', why: `denied on ${event}, which replaces the output` };
    if (typeof denyReason !== 'string' || denyReason === '') return { kind: 'bad', why: 'denied without a reason' };
    return { kind: who.stops && parsed.continue === false ? 'handoff' : 'deny', text: denyReason };
  }
  if (parsed.continue === false) {
    // A stop on the pre event is how such a tool's hand-off ends the run (its command never runs either).
    const reason = parsed.stopReason;
    if (who.stops && step === 'pre' && typeof reason === 'string' && reason !== '')
      return { kind: 'handoff', text: reason };
    return { kind: 'bad', why: `stopped the run on ${event}` };
  }
  const context = parsed.additionalContext ?? h?.additionalContext;
  if (typeof context === 'string') return { kind: 'warn', text: context };
  return { kind: 'silent' };
}

export const READERS: Readonly<Record<AnswerFormat, Reader>> = {
  'hook-specific-output': (out, step, event, who) => readHookSpecific(out, step, event, who, false),
  'hook-specific-output-only': (out, step, event, who) => readHookSpecific(out, step, event, who, true),
  'permission-fields': readPermissionFields,
  'decision-or-context': readDecisionOrContext,
};
