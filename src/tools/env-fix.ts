// How a fix message writes environment values for a shell: one `export` line's arguments.

/** `GIT_PAGER=cat GIT_EDITOR=true`: the values doctor found missing, as `export` takes them. */
export function exportArgs(vars: ReadonlyArray<readonly [key: string, value: string]>): string {
  return vars.map(([key, value]) => `${key}=${value}`).join(' ');
}
