// The field corpus: repository layouts cut from real public repositories (test/fixtures/field/<name>/layout.json),
// materialised into temp git repositories the way they are checked out: symlinks as links, modes, nested .gitignores.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fixturesDir } from '../helpers/paths.ts';

export const fieldDir = join(fixturesDir, 'field');

export interface LayoutFile {
  path: string;
  mode: '100644' | '100755' | '120000';
  text?: string;
  base64?: string;
}

export interface Layout {
  name: string;
  source: { repo: string; commit: string; licence: string; url: string };
  /** plain checkout, or one of the shapes derived from a real layout. */
  kind: 'plain' | 'worktree' | 'submodule' | 'crlf';
  /** Where the user runs the CLI, relative to the repository (a package folder in a monorepo). */
  cwd: string;
  tools: string[] | null;
  shapes: string[];
  note: string;
  /** Tools the repository hints at only weakly (Copilot instructions, a .kilocode/ folder): listed, never installed. */
  weak?: string[];
  /** Why the repository's formatter cannot run here (a config for another major version), when it cannot. */
  noFormatter?: string;
  /** A derived layout names the real one it is built from and says how. */
  from?: string;
  derived?: string;
  files: LayoutFile[];
}

/** Every layout, derived ones with the files of the layout they are built from. */
export function loadLayouts(): Layout[] {
  const raw = readdirSync(fieldDir)
    .filter((n) => existsSync(join(fieldDir, n, 'layout.json')))
    .sort()
    .map((n) => JSON.parse(readFileSync(join(fieldDir, n, 'layout.json'), 'utf8')) as Layout);
  const byName = new Map(raw.map((l) => [l.name, l]));
  return raw.map((l) => {
    if (!l.from) return l;
    const base = byName.get(l.from);
    if (!base) throw new Error(`${l.name}: no layout ${l.from} to derive from`);
    return {
      ...base,
      ...l,
      source: base.source,
      files: base.files,
      cwd: l.cwd ?? base.cwd,
      tools: l.tools ?? base.tools,
    };
  });
}

/** git with a fixed identity and no user or system config, so a developer's settings cannot change the result. */
export function git(args: string[], cwd: string, home: string): string {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Field Test',
      GIT_AUTHOR_EMAIL: 'field@example.invalid',
      GIT_COMMITTER_NAME: 'Field Test',
      GIT_COMMITTER_EMAIL: 'field@example.invalid',
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} in ${cwd}: ${r.stderr}`);
  return r.stdout;
}

function writeFiles(dir: string, files: LayoutFile[]): void {
  for (const f of files) {
    const abs = join(dir, f.path);
    mkdirSync(dirname(abs), { recursive: true });
    if (f.mode === '120000') symlinkSync(f.text ?? '', abs);
    else {
      writeFileSync(abs, f.base64 !== undefined ? Buffer.from(f.base64, 'base64') : (f.text ?? ''));
      if (f.mode === '100755') chmodSync(abs, 0o755);
    }
  }
}

/** A committed repository holding the layout; every file is tracked, as it was upstream, even where .gitignore says no. */
function committedRepo(dir: string, layout: Layout, home: string): void {
  mkdirSync(dir, { recursive: true });
  writeFiles(dir, layout.files);
  git(['init', '-q', '-b', 'main'], dir, home);
  git(['add', '-f', '-A'], dir, home);
  git(['commit', '-q', '--no-verify', '-m', `layout of ${layout.source.repo}`], dir, home);
}

export interface Materialised {
  /** The working tree the user has (a worktree, a submodule checkout, or the repository itself). */
  top: string;
  /** Where the CLI runs: `top` or a package folder in it. */
  cwd: string;
  home: string;
  /** Extra arguments for `git clone` so a clone checks out as this one did. */
  cloneArgs: string[];
  base: string;
}

export function materialise(layout: Layout): Materialised {
  const base = realpathSync(mkdtempSync(join(tmpdir(), `lg-field-${layout.name}-`)));
  const home = join(base, 'home');
  mkdirSync(home);
  let top = join(base, 'repo');
  let cloneArgs: string[] = [];
  if (layout.kind === 'submodule') {
    const origin = join(base, 'origin');
    committedRepo(origin, layout, home);
    const superDir = join(base, 'super');
    mkdirSync(superDir);
    git(['init', '-q', '-b', 'main'], superDir, home);
    git(['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', origin, 'vendor/app'], superDir, home);
    git(['commit', '-q', '--no-verify', '-m', 'add the app as a submodule'], superDir, home);
    top = join(superDir, 'vendor', 'app');
  } else if (layout.kind === 'worktree') {
    const main = join(base, 'main');
    committedRepo(main, layout, home);
    top = join(base, 'worktree');
    git(['worktree', 'add', '-q', '-b', 'field', top], main, home);
  } else {
    committedRepo(top, layout, home);
    if (layout.kind === 'crlf') {
      // What a Windows checkout gives: the same commit, text files written with CRLF by core.autocrlf.
      git(['config', 'core.autocrlf', 'true'], top, home);
      for (const name of readdirSync(top)) if (name !== '.git') rmSync(join(top, name), { recursive: true });
      git(['checkout', '-q', '--', '.'], top, home);
      cloneArgs = ['-c', 'core.autocrlf=true'];
    }
  }
  return { top, cwd: join(top, layout.cwd), home, cloneArgs, base };
}

/** path → what a byte-identical check needs: the link target, or the mode and the bytes. `.git` is not the tree. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      if (name === '.git') continue;
      const abs = join(d, name);
      const st = lstatSync(abs);
      const rel = relative(dir, abs);
      if (st.isSymbolicLink()) out.set(rel, `-> ${readlinkSync(abs)}`);
      else if (st.isDirectory()) walk(abs);
      else out.set(rel, `${(st.mode & 0o111) !== 0 ? 'x ' : ''}${readFileSync(abs).toString('latin1')}`);
    }
  };
  walk(dir);
  return out;
}

/** The paths whose entries differ, for a readable failure. */
export function treeDiff(want: Map<string, string>, got: Map<string, string>): string[] {
  const out: string[] = [];
  for (const p of want.keys()) if (!got.has(p)) out.push(`missing ${p}`);
  for (const [p, v] of got) {
    if (!want.has(p)) out.push(`extra ${p}`);
    else if (want.get(p) !== v) out.push(`changed ${p}`);
  }
  return out;
}
