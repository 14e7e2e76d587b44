// Pure: what a hook command line really runs. Split by the guard's shell splitter, words expanded as sh would (`$VAR`,
// and the `$(git rev-parse …)` that Codex lines of earlier installs have), so doctor can tell "runs exactly our guard
// file" from "mentions its name", and can see the environment the command itself sets (`LOOP_GUARD_HANG=off node …`).
import { isAbsolute, join, relative, resolve } from 'node:path';
import { splitCommands } from '../guard/core/shell/split.ts';
import { loaderStart } from '../tools/hook-command.ts';
import { GUARD_PATH } from '../tools/markers.ts';

/** A simple command of a hook line, its words expanded the way sh would expand them at that point. */
export interface HookCommand {
  /** `NAME=value` words before the program, `env NAME=value`, and `export NAME=value` before it in the line. */
  assignments: Record<string, string>;
  words: string[];
}

/** Command substitutions we can resolve without running anything: the ones our earlier hook lines used. */
const KNOWN_SUBST: Record<string, 'root'> = {
  'git rev-parse --show-toplevel 2>/dev/null || pwd': 'root',
  'git rev-parse --show-toplevel': 'root',
  pwd: 'root',
};

/** `$VAR`, `${VAR}` and the known `$(…)` in a word the splitter unquoted; null for anything else that runs code. */
function expand(word: string, vars: Readonly<Record<string, string>>, root: string): string | null {
  if (word.includes('`')) return null;
  let out = '';
  for (let i = 0; i < word.length; ) {
    if (word[i] !== '$') {
      out += word[i++];
      continue;
    }
    if (word[i + 1] === '(') {
      let depth = 0;
      let end = -1;
      for (let j = i + 1; j < word.length && end < 0; j++) {
        if (word[j] === '(') depth++;
        else if (word[j] === ')' && --depth === 0) end = j;
      }
      if (end < 0 || KNOWN_SUBST[word.slice(i + 2, end).trim()] !== 'root') return null;
      out += root;
      i = end + 1;
      continue;
    }
    const m = /^\{([A-Za-z_][A-Za-z0-9_]*)\}|^([A-Za-z_][A-Za-z0-9_]*)/.exec(word.slice(i + 1));
    if (!m) {
      out += '$';
      i++;
      continue;
    }
    out += vars[(m[1] ?? m[2]) as string] ?? '';
    i += 1 + m[0].length;
  }
  return out;
}

/**
 * The simple commands of a hook line, split by the guard's own shell splitter (quotes, lists, pipes, redirections),
 * with the line's own `export`s carried forward; null when a word needs code run to know it.
 */
export function splitHookLine(
  line: string,
  vars: Readonly<Record<string, string>>,
  root: string,
): HookCommand[] | null {
  const out: HookCommand[] = [];
  const exported: Record<string, string> = {};
  for (const c of splitCommands(line)) {
    if (c.nested) continue;
    const words: string[] = [];
    for (const w of c.argv) {
      const x = expand(w, vars, root);
      if (x === null) return null;
      words.push(x);
    }
    const assignments: Record<string, string> = { ...exported };
    for (const [k, v] of c.env) {
      const x = expand(v, vars, root);
      if (x === null) return null;
      assignments[k] = x;
    }
    if (words[0] === 'export') {
      for (const w of words.slice(1)) {
        const eq = w.indexOf('=');
        if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(w.slice(0, eq))) exported[w.slice(0, eq)] = w.slice(eq + 1);
      }
      continue;
    }
    out.push({ assignments, words });
  }
  return out;
}

function isNode(word: string | undefined): boolean {
  if (!word) return false;
  const base = word.split('/').pop() ?? '';
  return /^node(js)?(\d+)?(\.exe)?$/.test(base);
}

export interface OurRun {
  /** The environment the command line itself gives our guard. */
  assignments: Record<string, string>;
}

/**
 * The simple command that runs exactly `guardAbs` with node, or null. `vars` are the tool's variables
 * (e.g. CLAUDE_PROJECT_DIR); relative paths resolve against the repository root, where the tools run hooks.
 */
export function runsOurFile(
  line: string,
  guardAbs: string,
  root: string,
  vars: Readonly<Record<string, string>>,
): OurRun | null {
  // Our loader's backticks are literal in its single quotes, which the splitter's words no longer show: it is
  // swapped for a name first, and each name stands for where that loader starts.
  const starts: Array<{ rootEnv?: string }> = [];
  const masked = line.replace(/'([^']*)'/g, (quoted, js: string) => {
    const start = loaderStart(js);
    if (!start) return quoted;
    starts.push(start);
    return `'@loop-guard-loader-${starts.length - 1}@'`;
  });
  const cmds = splitHookLine(masked, vars, root);
  if (!cmds) return null;
  for (const c of cmds) {
    if (!isNode(c.words[0])) continue;
    // Our `node -e` loader runs the guard file of the first folder up from where it starts that has one.
    const named = c.words[1] === '-e' ? /^@loop-guard-loader-(\d+)@$/.exec(c.words[2] ?? '') : null;
    const start = named ? starts[Number(named[1])] : undefined;
    if (start) {
      const from = resolve(root, (start.rootEnv && vars[start.rootEnv]) || root);
      const home = resolve(guardAbs, '..', '..', '..');
      const below = relative(home, from);
      if (join(home, GUARD_PATH) === guardAbs && !below.startsWith('..') && !isAbsolute(below))
        return { assignments: c.assignments };
      continue;
    }
    // The script is the first argument that is not a node option.
    const script = c.words.slice(1).find((w) => !w.startsWith('-'));
    if (!script) continue;
    const abs = isAbsolute(script) ? resolve(script) : resolve(root, script);
    if (abs === guardAbs) return { assignments: c.assignments };
  }
  return null;
}
