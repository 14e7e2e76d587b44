// The headless command line each tool is run with (src/run/agents.ts); OpenCode and its fork Kilo share one record.
import { describe, expect, it } from 'vitest';
import { AGENTS } from '../../src/run/agents.ts';

describe('the run table', () => {
  const a = { model: 'm', resume: 's', extra: ['--x'], prompt: 'do it' };
  it('OpenCode and Kilo: `run --format json`, the model, the session, the pass-through flags, then the prompt', () => {
    expect([AGENTS.opencode.bin, ...AGENTS.opencode.args(a)]).toEqual([
      'opencode',
      'run',
      '--format',
      'json',
      '--model',
      'm',
      '--session',
      's',
      '--x',
      'do it',
    ]);
    expect([AGENTS.kilo.bin, ...AGENTS.kilo.args(a)]).toEqual(['kilo', ...AGENTS.opencode.args(a)]);
    expect([AGENTS.opencode.label, AGENTS.kilo.label]).toEqual(['OpenCode', 'Kilo']);
  });
  it('leaves out a flag whose value is not given', () => {
    expect(AGENTS.kilo.args({ model: undefined, resume: undefined, extra: [], prompt: 'p' })).toEqual([
      'run',
      '--format',
      'json',
      'p',
    ]);
  });
});
