// Bundle entry for dist/loop-guard.mjs, and the body of dist/loop-guard.cjs (run by loader.ts).
import { main } from './main.ts';

/** The kind of event handled, for the loader's code cache. */
export const handled = main();
