// Pure checks on the instruction files: the AGENTS.md stop rule, a tool's import of it, and an instruction size budget.
import { type BlockSpec, hasBlock, inspectBlock } from '../edit/md-block.ts';
import { posix } from 'node:path';
import { BLOCK_ID } from '../tools/markers.ts';
import { findInlineImports, hasImportLine } from '../edit/import-line.ts';
import { type Check, fail, note, pass, RERUN } from './types.ts';

/** `repo.agents-md`: our block is there and is the text this version writes. */
export function agentsBlockCheck(text: string | null, spec: BlockSpec): Check {
  const id = 'repo.agents-md';
  if (text === null)
    return fail(
      id,
      'AGENTS.md does not exist, so no agent reads the stop rule',
      `${RERUN} (it creates AGENTS.md with the loop-guard block)`,
    );
  const s = inspectBlock(text, spec);
  switch (s.state) {
    case 'current':
      return pass(id, `AGENTS.md has the current loop-guard block (v${spec.version})`);
    case 'absent':
      return fail(
        id,
        'AGENTS.md has no loop-guard block, so agents never read the stop rule',
        `${RERUN} to add it back`,
      );
    case 'outdated':
      return fail(id, `AGENTS.md: ${s.detail}`, `${RERUN} to upgrade it`);
    case 'edited':
      return fail(
        id,
        `AGENTS.md: ${s.detail}`,
        `move your own text outside the block, then npx create-loop-guard --yes --force to rewrite it`,
      );
    case 'broken':
      return fail(
        id,
        `AGENTS.md: ${s.detail ?? 'the loop-guard markers are broken'}`,
        `delete the stray loop-guard marker lines, then ${RERUN}`,
      );
  }
}

/** `<tool>.import`: a tool that reads its own file, not AGENTS.md, sees the rule only through an import (`line`, e.g.
 * `@AGENTS.md`) or a link; `files` are the places it reads, the import intent's first. */
export function importCheck(
  tool: string,
  label: string,
  line: string,
  files: { path: string; text: string | null; symlinkToAgents: boolean }[],
): Check {
  const id = `${tool}.import`;
  const target = line.replace(/^@/, '');
  const first = files[0]?.path ?? target;
  const present = files.filter((f) => f.text !== null);
  for (const f of present) {
    if (f.symlinkToAgents) return pass(id, `${f.path} is a link to ${target}`);
    if (hasImportLine(f.text as string, line)) return pass(id, `${f.path} imports ${line}`);
    // An import is relative to the file holding it: .claude/CLAUDE.md reaches the root's AGENTS.md as @../AGENTS.md.
    const relative = `@${posix.relative(posix.dirname(f.path), target)}`;
    if (relative !== line && hasImportLine(f.text as string, relative))
      return pass(id, `${f.path} imports ${relative}`);
    if (hasBlock(f.text as string, BLOCK_ID, 'markdown')) return pass(id, `${f.path} holds the stop rule (our block)`);
    const inline = findInlineImports(f.text as string, line);
    if (inline.length) return pass(id, `${f.path} mentions ${line} on line ${inline[0]}, which ${label} imports`);
  }
  if (!present.length)
    return fail(
      id,
      `there is no ${first}, and ${label} does not read ${target}, so it never sees the stop rule`,
      `${RERUN} (it creates ${first} holding the stop rule)`,
    );
  const where = present[0]?.path ?? first;
  return fail(
    id,
    `${where} does not import ${target}, so ${label} never sees the stop rule`,
    `${RERUN} (it adds the stop rule to ${where} as a managed block)`,
  );
}

export interface InstructionDoc {
  /** Repo-relative directory, '' for the root. */
  dir: string;
  name: 'AGENTS.md' | 'AGENTS.override.md';
  bytes: number;
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** One file per directory, as the tool picks it: AGENTS.override.md before AGENTS.md; empty files are skipped. */
function chosen(docs: readonly InstructionDoc[]): Map<string, InstructionDoc> {
  const byDir = new Map<string, InstructionDoc>();
  for (const d of docs) {
    if (d.bytes === 0) continue;
    const have = byDir.get(d.dir);
    if (!have || (d.name === 'AGENTS.override.md' && have.name === 'AGENTS.md')) byDir.set(d.dir, d);
  }
  return byDir;
}

function ancestors(dir: string): string[] {
  const parts = dir === '' ? [] : dir.split('/');
  return ['', ...parts.map((_, i) => parts.slice(0, i + 1).join('/'))];
}

/**
 * `<tool>.instructions`: a tool that concatenates the instruction files from the repo root down to its working
 * directory and stops at a byte budget (`key` in `configPath`) loses the rule when the root file hides it or pushes it
 * past the budget; any chain over the budget loses its end.
 */
export function instructionsBudgetCheck(
  tool: string,
  label: string,
  setting: { key: string; configPath: string },
  docs: readonly InstructionDoc[],
  blockEnd: number | null,
  budget: number,
): Check {
  const id = `${tool}.instructions`;
  const byDir = chosen(docs);
  const root = byDir.get('');
  if (root?.name === 'AGENTS.override.md') {
    return fail(
      id,
      `${label} reads AGENTS.override.md at the repo root instead of AGENTS.md, so it never sees the loop-guard block`,
      'copy the loop-guard block from AGENTS.md into AGENTS.override.md, or delete AGENTS.override.md',
    );
  }
  if (blockEnd !== null && blockEnd > budget) {
    return fail(
      id,
      `the loop-guard block ends at byte ${blockEnd} of AGENTS.md, past ${label}'s ${kib(budget)}` +
        ` instruction budget, so ${label} never reads it`,
      'move the loop-guard block (begin marker through end marker) to the top of AGENTS.md, or shorten the text above it',
    );
  }
  let worst = { dir: '', bytes: 0, files: [] as string[] };
  for (const dir of byDir.keys()) {
    const chain = ancestors(dir)
      .map((d) => byDir.get(d))
      .filter((d): d is InstructionDoc => d !== undefined);
    const bytes = chain.reduce((n, d) => n + d.bytes, 0);
    if (bytes > worst.bytes) worst = { dir, bytes, files: chain.map((d) => (d.dir ? `${d.dir}/${d.name}` : d.name)) };
  }
  if (worst.bytes > budget) {
    const where = worst.dir ? `in ${worst.dir}/ (${worst.files.join(' + ')})` : 'at the root';
    // The block is read (it ends within the budget): the text cut off is the user's, not a fault of the install.
    return note(
      id,
      `${label}'s instructions ${where} add up to ${kib(worst.bytes)}, over its ${kib(budget)} budget, so it cuts` +
        ` off the end${blockEnd !== null ? ' (the loop-guard block is within it)' : ''}: shorten those files, or raise ${setting.key} in` +
        ` ${setting.configPath}`,
    );
  }
  const size = root ? `AGENTS.md is ${kib(root.bytes)}` : 'there is no AGENTS.md';
  const chain = worst.dir ? `; the longest chain, ${worst.files.join(' + ')}, is ${kib(worst.bytes)}` : '';
  return pass(id, `${size}${chain}, within ${label}'s ${kib(budget)} instruction budget`);
}
