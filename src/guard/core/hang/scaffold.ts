// Project scaffolders (npm create …, npx create-…, yarn/pnpm/bun create …) that ask questions unless given their batch
// flags.
import { baseName } from '../shell/split.ts';
import { NPM_VALUE_OPTS, positionals } from './argv.ts';
import type { Finding } from './types.ts';

interface Scaffolder {
  /** Options any one of which makes the scaffolder ask nothing (from each tool's --help / docs). */
  batch: readonly string[];
  /** The non-interactive form to show. */
  example: string;
  /** Honours CI=1 by taking the defaults (create-next-app reads ci-info). */
  ci?: boolean;
}

/** Known scaffolders by package name; an unknown create-* is refused only when it is given nothing at all. */
const SCAFFOLDERS: Record<string, Scaffolder> = {
  'create-vite': {
    batch: ['--template', '-t', '--no-interactive'],
    example: 'npm create vite@latest my-app -- --template react',
  },
  'create-next-app': {
    batch: ['--yes', '-y', '--example', '-e'],
    example: 'npx create-next-app@latest my-app --yes',
    ci: true,
  },
  'create-astro': { batch: ['--yes', '-y'], example: 'npm create astro@latest my-app -- --yes' },
  'create-vue': {
    batch: ['--default', '--bare', '--ts', '--typescript', '--router', '--pinia', '--vitest'],
    example: 'npm create vue@latest my-app -- --default',
  },
  'create-react-router': { batch: ['--yes', '-y'], example: 'npx create-react-router@latest my-app --yes' },
  'create-remix': { batch: ['--yes', '-y'], example: 'npx create-remix@latest my-app --yes' },
  'create-t3-app': { batch: ['--CI', '--default', '-y'], example: 'npx create-t3-app@latest my-app --CI' },
  'create-expo-app': { batch: ['--yes', '-y', '--template', '-t'], example: 'npx create-expo-app@latest my-app --yes' },
  'create-svelte': {
    batch: ['--template'],
    example: 'npx sv create my-app --template minimal --types ts --no-add-ons',
  },
  'create-hono': {
    batch: ['--template', '-t'],
    example: 'npm create hono@latest my-app -- --template nodejs --pm npm --install',
  },
  'create-playwright': { batch: ['--quiet'], example: 'npm init playwright@latest -- --quiet' },
  'create-cloudflare': {
    batch: ['--type', '--framework', '-y', '--yes'],
    example: 'npm create cloudflare@latest my-app -- --type hello-world --no-deploy --no-git',
  },
  'create-turbo': {
    batch: ['--example', '-e', '--package-manager', '-m'],
    example: 'npx create-turbo@latest my-repo --package-manager npm',
  },
  'create-nuxt': {
    batch: ['--template', '-t', '--packageManager', '--gitInit'],
    example: 'npm create nuxt@latest my-app -- --packageManager npm --gitInit false',
  },
  'create-docusaurus': { batch: [], example: 'npx create-docusaurus@latest my-site classic --typescript' },
};

/** Scaffolders that take everything they need as positionals and never ask (create-react-app <dir>). */
const NEVER_ASK = new Set(['create-react-app', 'create-electron-app', 'create-react-native-app']);

/** The create-* package an initializer name stands for: `vite` → `create-vite`, `@scope` → `@scope/create`. */
function createPackage(spec: string): string {
  const at = spec.indexOf('@', 1);
  const name = at === -1 ? spec : spec.slice(0, at);
  if (name.startsWith('@')) {
    const slash = name.indexOf('/');
    return slash === -1 ? `${name}/create` : `${name.slice(0, slash)}/create-${name.slice(slash + 1)}`;
  }
  return name.startsWith('create-') ? name : `create-${name}`;
}

/**
 * `original` is argv before runners were stripped (npm create …), `resolved` after (npx create-x → create-x …).
 * Returns the scaffolder's package and the words it receives, or null when this is not a scaffolder call.
 */
function scaffolderCall(original: string[], resolved: string[]): { pkg: string; args: string[]; npm: boolean } | null {
  const pm = baseName(original[0] ?? '');
  if (pm === 'npm' || pm === 'yarn' || pm === 'pnpm' || pm === 'bun') {
    const rest = original.slice(1);
    const pos = positionals(
      rest.slice(0, rest.indexOf('--') === -1 ? rest.length : rest.indexOf('--')),
      NPM_VALUE_OPTS,
    );
    const verb = pos[0];
    const isCreate =
      verb === 'create' || (pm === 'bun' && verb === 'c') || (pm === 'npm' && (verb === 'init' || verb === 'innit'));
    if (isCreate && pos[1] !== undefined) {
      const at = rest.indexOf(pos[1]);
      // npm takes options before `--` as its own; yarn, pnpm and bun pass them on.
      const after = rest.slice(at + 1);
      return { pkg: createPackage(pos[1]), args: after, npm: pm === 'npm' };
    }
  }
  const name = resolved[0];
  if (name?.includes('create-') && /^(?:@[^/]+\/)?create-[\w.-]+$/.test(name)) {
    return { pkg: name, args: resolved.slice(1).filter((a) => a !== '--'), npm: false };
  }
  return null;
}

export function scaffoldFinding(
  original: string[],
  resolved: string[],
  stdinRedirected: boolean,
  env: Map<string, string>,
): Finding | null {
  const call = scaffolderCall(original, resolved);
  if (call === null || NEVER_ASK.has(call.pkg) || stdinRedirected) return null;
  let args = call.args;
  let npmNote = '';
  if (call.npm) {
    const dd = args.indexOf('--');
    const own = dd === -1 ? args : args.slice(0, dd);
    const passed = dd === -1 ? [] : args.slice(dd + 1);
    if (own.some((a) => a === '--help' || a === '-h')) return null;
    if (passed.length === 0 && own.some((a) => a.startsWith('-'))) {
      npmNote = ' npm keeps the options before `--` for itself, so the scaffolder never sees them.';
    }
    args = [...own.filter((a) => !a.startsWith('-')), ...passed];
  }
  if (args.some((a) => a === '--help' || a === '-h' || a === '--version' || a === '-v' || a === '-V')) return null;
  const known = SCAFFOLDERS[call.pkg];
  const display = call.pkg.replace(/^create-/, '');
  if (known) {
    if (known.ci && /^(1|true)$/i.test(env.get('CI') ?? '')) return null;
    if (args.some((a) => known.batch.includes(a.split('=', 1)[0]!))) return null;
    // Four or more options read as a fully specified run; errs towards allowing.
    if (args.filter((a) => a.startsWith('--')).length >= 4) return null;
    if (known.batch.length === 0 && positionals(args).length >= 2) return null;
  } else if (args.length > 0) {
    return null;
  }
  const example = known ? known.example : `npm create ${display}@latest my-app -- <its options>`;
  return {
    rule: 'scaffolder',
    why:
      `${call.pkg} asks questions (project name, template, …) and waits for answers typed at the keyboard.` +
      `${npmNote} Given a directory and its options it asks nothing: \`${example}\`` +
      `${known ? '' : ' (its --help lists them)'}.`,
  };
}
