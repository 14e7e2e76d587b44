// Bundle entry for dist/loop-guard.mjs.
import { main } from './main.ts';

main();
