// Random commands and results of any UTF-16 text (Unicode spaces, lone surrogates, spinner frames, control
// characters, shell syntax) through the guard core for every tool: each answer comes, none throws. The core runs in a
// child process with a deadline, bundled from src/ by esbuild, so an endless loop fails the test instead of hanging
// the run (the command-key tokenizer once looped on a U+00A0 outside quotes).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'lg-fuzz-unicode-'));
const core = join(dir, 'core.mjs');
const script = join(dir, 'run.mjs');

// Seeded: a failure names its seed, and the same seed gives the same inputs.
const RUN = `
import { classifyFailure, commandShape, decide, normalizeOutput, splitCommands, TOOL_FACTS } from './core.mjs';
const [seedArg, perTool] = process.argv.slice(2).map(Number);
let seed = seedArg;
const rnd = (n) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
const ranges = [[0x00, 0x7f], [0x80, 0x2ff], [0x1680, 0x1680], [0x2000, 0x206f], [0x2500, 0x28ff], [0x3000, 0x303f],
  [0xd800, 0xdfff], [0xfe00, 0xffff]];
const words = ['echo ', 'vim ', 'git commit', 'npm run dev', 'tail -f ', '|| true', '2>&1', '<<EOF\\n', 'EOF', '$(', '\`',
  'export EDITOR=vim; ', 'find . -exec ', 'Get-Content -Wait ', 'powershell -c ', '"', "'", '\\\\', '\\n', '\\r\\n', '%'];
const unit = () => { const r = ranges[rnd(ranges.length)]; return String.fromCharCode(r[0] + rnd(r[1] - r[0] + 1)); };
const text = (max) => { let s = ''; for (let n = rnd(max); n > 0; n--) s += rnd(4) === 0 ? words[rnd(words.length)] : unit(); return s; };
const settings = { enabled: true, warn: 3, block: 4, hangGuard: true, handoff: 0 };
let calls = 0;
for (const tool of Object.keys(TOOL_FACTS)) {
  let state;
  const store = { read: () => state, update(change) { const { next, result } = change(state); state = next; return result; } };
  for (let k = 0; k < perTool; k++) {
    const command = text(24);
    const output = text(80);
    splitCommands(command);
    commandShape(command);
    normalizeOutput(output, { command });
    classifyFailure(output, 1);
    for (let again = 0; again < 2; again++) {
      decide({ kind: 'pre', command, background: rnd(2) === 1 }, settings, TOOL_FACTS[tool], store, undefined, false);
      decide({ kind: 'post', command, output, exitCode: rnd(3) }, settings, TOOL_FACTS[tool], store, undefined, false);
      calls++;
    }
  }
}
console.log('ok ' + calls);
`;

beforeAll(async () => {
  const src = (p: string) => fileURLToPath(new URL(`../../src/${p}`, import.meta.url));
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    [
      `export { decide } from ${JSON.stringify(src('guard/core/decide.ts'))};`,
      `export { TOOL_FACTS } from ${JSON.stringify(src('guard/adapters/index.ts'))};`,
      `export { normalizeOutput } from ${JSON.stringify(src('guard/core/normalize.ts'))};`,
      `export { classifyFailure } from ${JSON.stringify(src('guard/core/classify.ts'))};`,
      `export { splitCommands } from ${JSON.stringify(src('guard/core/shell/split.ts'))};`,
      `export { commandShape } from ${JSON.stringify(src('guard/core/command-key.ts'))};`,
      '',
    ].join('\n'),
  );
  await build({
    entryPoints: [entry],
    outfile: core,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  writeFileSync(script, RUN);
}, 60_000);

describe('the guard core on any text', () => {
  it.each([1, 2, 3])('seed %i: 1,500 random commands and results per tool, answered within the deadline', (seed) => {
    const r = spawnSync(process.execPath, [script, String(seed), '1500'], { encoding: 'utf8', timeout: 120_000 });
    // The deadline's SIGTERM, or V8's abort once an endless loop has filled the heap.
    expect(r.signal, `seed ${seed} was ended by a signal: an endless loop, or a crash`).toBeNull();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^ok \d+$/);
  });
});
