// Step 1, detect: the ownership record (rebuilt from our marks when lost), the tools found, the tools to set up.
import { buildAssets, VERSION } from '../../assets.ts';
import { EXIT } from '../../exit-codes.ts';
import type { IO } from '../../io.ts';
import { GUARD_PATH } from '../../tools/markers.ts';
import { TOOL_NAMES, TOOLS, type ToolName } from '../../tools/index.ts';
import { type DetectedTool, detectTools, detectWeak } from '../detect.ts';
import { gitignoresFor } from '../ignored.ts';
import { MANIFEST_PATH, type Manifest } from '../manifest.ts';
import { hookPathProblem } from '../paths.ts';
import { intentsFor, planPaths } from '../plan.ts';
import { CANCELLED } from '../prompt/types.ts';
import { rebuildManifest } from '../rebuild.ts';
import { parseToolArg, toolListError } from '../tool-list.ts';
import { toolsReport } from '../../report/summary.ts';
import { sayFormatters } from './formatters.ts';
import { biomeRefused, type Options } from './options.ts';
import type { Output } from './output.ts';
import { loadManifest, readRepoFile, readRepoFileSafe } from './repo-files.ts';

/** What the rest of the run works on. */
export interface Context {
  root: string;
  detected: DetectedTool[];
  tools: ToolName[];
  manifest: Manifest | null;
  /** The record was missing and has been rebuilt from our marks (--check calls that drift). */
  recordLost: boolean;
}

/** The record as it is, or rebuilt from our marks in the files, so nothing we wrote is taken for the user's. */
function readRecord(root: string, out: Output): { manifest: Manifest | null; recordLost: boolean } {
  const manifest = loadManifest(root);
  if (manifest) return { manifest, recordLost: false };
  const all = planPaths(TOOL_NAMES, null, (p) => readRepoFileSafe(root, p));
  all.push(...gitignoresFor(all).filter((p) => !all.includes(p)));
  const texts = new Map(all.map((p) => [p, readRepoFile(root, p)] as const));
  const intents = (tools: ToolName[]) => intentsFor(tools, (p) => texts.get(p) ?? null);
  const rebuilt = rebuildManifest(texts, intents, { version: VERSION, assets: buildAssets(VERSION) });
  if (!rebuilt) return { manifest: null, recordLost: false };
  out.say(
    'info',
    'record-rebuilt',
    `${MANIFEST_PATH} is missing: rebuilt what create-loop-guard owns from its marks in the files (` +
      `${rebuilt.tools.map((t) => TOOLS[t].label).join(', ')}).`,
    out.c.dim,
  );
  return { manifest: rebuilt, recordLost: true };
}

/** The tools this run works on: --tools, else those detected, plus every tool an earlier run set up. */
function toolsToSetUp(
  opts: Options,
  detected: DetectedTool[],
  manifest: Manifest | null,
  out: Output,
): ToolName[] | number {
  let tools: ToolName[];
  if (opts.tools !== undefined) {
    const parsed = parseToolArg(opts.tools);
    if (parsed.unknown.length || !parsed.tools.length) {
      out.problem('usage', toolListError(opts.tools, parsed));
      return out.finish(EXIT.error, 'usage-error');
    }
    tools = parsed.tools;
  } else {
    // A tool taken out with --remove --tools stays out until --tools names it again; --check judges what is set up.
    tools = detected.map((d) => d.name).filter((t) => !manifest?.removed?.includes(t));
    if (opts.mode === 'check' && manifest) tools = tools.filter((t) => manifest.tools.includes(t));
  }
  // An upgrade keeps every tool an earlier run set up, even if its folder was not detected this time; --remove and
  // --check with --tools work on the named tools only.
  if (opts.mode === 'apply' || opts.tools === undefined)
    for (const t of manifest?.tools ?? []) if (!tools.includes(t)) tools.push(t);
  return tools;
}

/** The tools only weak evidence suggests, for the no-tools message. */
function weakLine(root: string): string {
  const weak = detectWeak(root);
  if (!weak.length) return '';
  return (
    `\n  Also possible: ` +
    `${weak.map((d) => `${TOOLS[d.name].label} (${d.evidence.join(', ')}; other tools use it too): --tools ${d.name}`).join('; ')}`
  );
}

/** No tool found: a person picks them; otherwise exit 2 with what was looked for. */
async function noTools(opts: Options, io: IO, ctx: Context, out: Output): Promise<number | undefined> {
  if (out.interactive && opts.mode === 'apply') {
    const chosen = await io.prompter.chooseTools();
    if (chosen === CANCELLED) {
      out.say('info', 'cancelled', 'Nothing written.');
      return out.finish(EXIT.drift, 'cancelled');
    }
    ctx.tools = chosen;
  }
  if (ctx.tools.length) return undefined;
  const looked = Object.values(TOOLS)
    .flatMap((t) => t.evidence)
    .join(', ');
  out.problem(
    'no-tools',
    `no agent tool config found in ${ctx.root} (looked for ${looked}).${weakLine(ctx.root)}\n  Pass the ` +
      `tools you use: --tools ${TOOL_NAMES.join(',')} (or --tools all)`,
  );
  return out.finish(EXIT.error, 'no-tools');
}

/** Tools only weak evidence suggests, beside the detected ones: named, never set up on a guess. */
function sayAlsoPossible(ctx: Context, out: Output): void {
  const weak = detectWeak(ctx.root).filter((d) => !ctx.tools.includes(d.name));
  if (!weak.length) return;
  out.say(
    'info',
    'also-possible',
    `Also possible, not set up: ` +
      `${weak.map((d) => `${TOOLS[d.name].label} (${d.evidence.join(', ')} alone; other tools use it too)`).join('; ')}` +
      `.\n  To set it up as well: npx create-loop-guard --tools ` +
      `${[...ctx.tools, ...weak.map((d) => d.name)].join(',')}`,
    out.c.dim,
  );
}

/** Step 1: the context, shown with its evidence, or the exit code of a run that stops here. */
export async function detectStep(
  opts: Options,
  io: IO,
  root: string,
  notes: readonly string[],
  out: Output,
): Promise<Context | number> {
  let ctx: Context;
  try {
    out.report.root = root;
    for (const note of notes) out.say('info', 'root', note, out.c.dim);
    const { manifest, recordLost } = readRecord(root, out);
    const detected = detectTools(root);
    const tools = toolsToSetUp(opts, detected, manifest, out);
    if (typeof tools === 'number') return tools;
    ctx = { root, detected, tools, manifest, recordLost };
  } catch (err) {
    return out.readFailure(err);
  }
  if (!ctx.tools.length && opts.mode !== 'remove') {
    const stop = await noTools(opts, io, ctx, out);
    if (stop !== undefined) return stop;
  }
  const pathProblem = opts.mode === 'remove' ? null : hookPathProblem(ctx.root, GUARD_PATH);
  if (pathProblem) {
    out.problem('unsafe-path', `${pathProblem}\n  Nothing was written.`);
    return out.finish(EXIT.error, 'unsafe-path');
  }
  if (opts.mode === 'apply' && opts.tools === undefined) sayAlsoPossible(ctx, out);
  if (opts.mode === 'apply') sayFormatters(ctx.root, out, ctx.tools, biomeRefused(opts, ctx.manifest));
  const toolRows: DetectedTool[] = ctx.tools.map((name) => ({
    name,
    evidence: ctx.detected.find((d) => d.name === name)?.evidence ?? [],
  }));
  out.report.tools = toolRows;
  if (!opts.json && opts.mode !== 'remove') io.out(`${toolsReport(toolRows, out.c)}\n`);
  return ctx;
}
