// What the hook answers before (or without) reading a payload, from the tool argument alone; tiny so the CJS loader can
// import it.
import type { OutputFormat } from './types.ts';

/** The format to answer in before the payload is read: the tool argument when it names one, else Claude's. */
export function formatFromArg(toolArg: string | undefined): OutputFormat {
  return toolArg === 'cursor' ? 'cursor' : toolArg === 'codex' ? 'codex' : 'claude';
}

/** What to print when the hook has nothing to say (run by hand, stdin over the cap, or a failure): Cursor needs a JSON
 * object. */
export function quietOutput(toolArg: string | undefined): string {
  return toolArg === 'cursor' ? '{}' : '';
}
