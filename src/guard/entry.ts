// The guard's body: what dist/loop-guard.cjs compiles and runs (loader.ts). The hook calls main(); the in-process
// plugins (OpenCode, Kilo, Cline) are small loaders in each tool's folder that require the same file and take theirs.
export { main } from './main.ts';
export { opencodePlugin } from './adapters/opencode.ts';
export { clinePlugin } from './adapters/cline.ts';
