// Types for esm-to-script.mjs (a build script, plain JavaScript), for the tests that import it.
export function esmToScript(
  source: string,
  notes?: Record<string, string>,
): { code: string; imports: Map<string, string[]> };
