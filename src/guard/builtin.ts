// Node builtins loaded on first use without importing node:module for createRequire, which cost every hook process
// 0.2-0.4 ms of start-up whether or not the builtin was ever needed.

/**
 * The builtin `id`: process.getBuiltinModule (Node 20.16+, 22.3+, Bun) loads nothing else; before it, the CommonJS
 * builds (the hook, the Cline plugin) have require in scope, and so do Bun's ES modules.
 */
export function builtin<T>(id: string): T {
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  return (typeof get === 'function' ? get.call(process, id) : require(id)) as T;
}
