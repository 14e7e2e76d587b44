// Change is progress: the pieces of the change-aware rules that are not state (see detector.ts for how they count).

/**
 * Fingerprints the working tree now, leaving out `skip` (paths the command itself writes) and adding the size and
 * mtime of `watch` (files that shell edits named); undefined when it cannot tell (no directory, git failed or timed
 * out). Injected I/O.
 */
export type TreeLook = (skip: readonly string[], watch?: readonly string[]) => string | undefined;

/** At most this many files named by shell edits are watched per session (newest kept). */
export const MAX_WATCHED = 8;
// A command that may edit files in place: sed/perl -i, a heredoc or inline script, patch, git apply/checkout/restore.
const MAY_EDIT =
  /\bsed\b[^|;&\n]*\s-[a-zA-Z]*i|\bperl\b[^|;&\n]*\s-[a-zA-Z]*i|<<|\b(?:python3?|node|ruby)\s+-[ce]\b|\bpatch\b|\bapply_patch\b|\bgit\s+(?:apply|checkout|restore)\b/;
const EDIT_NEEDLES = ['sed', 'perl', '<<', ' -c', ' -e', 'patch', 'apply', 'checkout', 'restore'];
// A file-like word: a relative path with an extension (app.js, src/lib/core/app.js), quoted or not.
const FILE_WORD = /(?<![\w./~$-])(?:\.\/)?[\w@][\w.@-]*(?:\/[\w.@-]+)*\.[A-Za-z][A-Za-z0-9]{0,7}(?![\w/(-])/g;

/**
 * The files a shell edit names (`sed -i … src/a.ts`, a `python3 - <<'PY'` script that opens 'app.js'), so the tree
 * look can stat them even where it does not reach (outside git, deeper than two levels). Cheap: one regex test for
 * a command that edits nothing.
 */
export function editTargets(command: string): string[] {
  // Compiling MAY_EDIT cost ~0.2 ms of a post; a command holding none of the words every match holds skips it.
  if (!EDIT_NEEDLES.some((n) => command.includes(n)) || !MAY_EDIT.test(command)) return [];
  const out: string[] = [];
  for (const m of command.matchAll(FILE_WORD)) {
    const path = m[0].replace(/^\.\//, '');
    if (!out.includes(path)) out.push(path);
    if (out.length === MAX_WATCHED) break;
  }
  return out;
}

// `> f`, `>> f`, `2> f`, `&> f` and `tee [-a] f`: files the command writes itself, which must not make its own rerun
// look like change.
const REDIRECT = /(?:^|[^<>&\d])(?:\d?>>?|&>>?)\s*(?!&)(['"]?)([^\s;&|<>()'"]+)\1/g;
const TEE = /\btee\s+(?:-[a-z]+\s+)*(['"]?)([^\s;&|<>()'"]+)\1/g;

/** The files a command writes by redirection or tee (relative as written, `./` dropped; /dev/* ignored). */
export function writtenPaths(command: string): string[] {
  if (!command.includes('>') && !command.includes('tee')) return [];
  const out: string[] = [];
  for (const re of [REDIRECT, TEE]) {
    re.lastIndex = 0;
    for (let m = re.exec(command); m; m = re.exec(command)) {
      const path = (m[2] ?? '').replace(/^\.\//, '');
      if (path && !path.startsWith('/dev/')) out.push(path);
    }
  }
  return out;
}

/** The same failure after this many runs, each after a change, earns one note (thrash); it is never refused. */
export const THRASH_RUNS = 5;

// Where a tool reports no exit code (Codex), a failure is read from the words a failing run prints.
const FAILED_WORDS = /\b(?:[1-9]\d* (?:failed|failing|errors?)|FAIL(?:ED)?|Error:|Traceback|panicked|npm ERR!)|✗|×/;

/** True when a result with no exit code reads as a failure. */
export function looksFailed(output: string): boolean {
  return FAILED_WORDS.test(output);
}
