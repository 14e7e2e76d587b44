// Interactive sign-ins: commands that ask for a password, a code or a browser, with their non-interactive forms.
import { hasAny, hasLong, HELP, once, positionals } from './argv.ts';
import type { Finding, Row } from './types.ts';

const login = (what: string, instead: string): Finding => ({
  rule: 'login',
  why: `${what} waits for a person to sign in (a browser, a pasted code or a typed password). ${instead}`,
});

const NPM_LOGIN =
  'A token can be set without prompts: `npm config set //registry.npmjs.org/:_authToken=$NPM_TOKEN` ' +
  '(or NPM_TOKEN referenced from .npmrc).';

/** `<program> <sub …>` sign-in commands: the words that select it, what makes it non-interactive, the advice. */
export const SIGN_INS: Record<
  string,
  ReadonlyArray<{ sub: readonly string[]; ok?: readonly string[]; not?: readonly string[]; instead: string }>
> = {
  gh: [
    {
      sub: ['auth', 'login'],
      ok: ['--with-token'],
      instead:
        'A token signs in without prompts: `gh auth login --with-token < token.txt`, or GH_TOKEN set in the environment.',
    },
    { sub: ['auth', 'refresh'], instead: 'GH_TOKEN set in the environment needs no refresh.' },
  ],
  glab: [
    {
      sub: ['auth', 'login'],
      ok: ['--token', '-t', '--stdin'],
      instead: 'A token signs in without prompts: `glab auth login --stdin < token.txt`.',
    },
  ],
  npm: [
    { sub: ['login'], instead: NPM_LOGIN },
    { sub: ['adduser'], instead: NPM_LOGIN },
    { sub: ['add-user'], instead: NPM_LOGIN },
  ],
  pnpm: [
    { sub: ['login'], instead: NPM_LOGIN },
    { sub: ['adduser'], instead: NPM_LOGIN },
  ],
  yarn: [
    { sub: ['login'], instead: NPM_LOGIN },
    {
      sub: ['npm', 'login'],
      instead: 'A token can be set without prompts: `yarn config set npmAuthToken "$NPM_TOKEN"`.',
    },
  ],
  docker: [
    {
      sub: ['login'],
      ok: ['--password-stdin', '-p', '--password'],
      instead: 'The password can come on stdin: `echo "$TOKEN" | docker login -u <user> --password-stdin`.',
    },
  ],
  podman: [
    {
      sub: ['login'],
      ok: ['--password-stdin', '-p', '--password'],
      instead: 'The password can come on stdin: `echo "$TOKEN" | podman login -u <user> --password-stdin`.',
    },
  ],
  az: [
    {
      sub: ['login'],
      ok: ['--service-principal', '--identity', '--federated-token'],
      instead:
        'A service principal or managed identity signs in without prompts: `az login --service-principal -u ' +
        '<app-id> -p <secret-or-cert> --tenant <tenant>`.',
    },
  ],
  gcloud: [
    {
      sub: ['auth', 'login'],
      ok: ['--cred-file'],
      instead: 'A key file signs in without prompts: `gcloud auth activate-service-account --key-file=key.json`.',
    },
    { sub: ['init'], instead: 'Settings can be made one by one: `gcloud config set project <id>`.' },
  ],
  aws: [
    {
      sub: ['configure'],
      not: ['set', 'get', 'list', 'import', 'list-profiles', 'export-credentials', 'sso', 'sso-session'],
      instead:
        'Values can be set one by one: `aws configure set region eu-west-1`, or given as AWS_* environment variables.',
    },
    {
      sub: ['sso', 'login'],
      instead:
        'Credentials can be given as AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY (or AWS_PROFILE with stored credentials).',
    },
  ],
  firebase: [
    { sub: ['login'], instead: 'A service account signs in without prompts: GOOGLE_APPLICATION_CREDENTIALS=key.json.' },
    {
      sub: ['login:ci'],
      instead: 'A service account signs in without prompts: GOOGLE_APPLICATION_CREDENTIALS=key.json.',
    },
  ],
  vercel: [{ sub: ['login'], instead: 'A token works without signing in: `vercel --token "$VERCEL_TOKEN" …`.' }],
  netlify: [{ sub: ['login'], instead: 'A token works without signing in: NETLIFY_AUTH_TOKEN in the environment.' }],
  heroku: [{ sub: ['login'], instead: 'A token works without signing in: HEROKU_API_KEY in the environment.' }],
  wrangler: [{ sub: ['login'], instead: 'A token works without signing in: CLOUDFLARE_API_TOKEN in the environment.' }],
  fly: [{ sub: ['auth', 'login'], instead: 'A token works without signing in: FLY_API_TOKEN in the environment.' }],
  flyctl: [{ sub: ['auth', 'login'], instead: 'A token works without signing in: FLY_API_TOKEN in the environment.' }],
  railway: [{ sub: ['login'], instead: 'A token works without signing in: RAILWAY_TOKEN in the environment.' }],
  supabase: [
    {
      sub: ['login'],
      ok: ['--token'],
      instead: 'A token signs in without prompts: `supabase login --token "$SUPABASE_ACCESS_TOKEN"`.',
    },
  ],
  doctl: [
    {
      sub: ['auth', 'init'],
      ok: ['-t', '--access-token'],
      instead: 'A token signs in without prompts: `doctl auth init -t "$DIGITALOCEAN_TOKEN"`.',
    },
  ],
  terraform: [
    { sub: ['login'], instead: 'A token works without signing in: TF_TOKEN_app_terraform_io in the environment.' },
  ],
  'huggingface-cli': [
    {
      sub: ['login'],
      ok: ['--token'],
      instead: 'A token signs in without prompts: `huggingface-cli login --token "$HF_TOKEN"`.',
    },
  ],
};

const SIGN_IN_VALUES = once(
  () =>
    new Set([
      '--profile',
      '--region',
      '--output',
      '--hostname',
      '-h',
      '--scopes',
      '-s',
      '--git-protocol',
      '-p',
      '-u',
      '--username',
      '--registry',
      '--scope',
      '--tenant',
      '--project',
    ]),
);

export function signIn(name: string): Row | undefined {
  const rows = SIGN_INS[name];
  if (!rows) return undefined;
  return (args, cmd) => {
    const pos = positionals(args, SIGN_IN_VALUES());
    for (const r of rows) {
      if (!r.sub.every((w, k) => pos[k] === w) || r.not?.includes(pos[r.sub.length] ?? '')) continue;
      if (cmd.stdinRedirected && name !== 'docker' && name !== 'podman') return null;
      if (
        hasAny(args, HELP) ||
        (r.ok && (hasAny(args, r.ok) || r.ok.some((o) => o.startsWith('--') && hasLong(args, o))))
      )
        return null;
      return login(`${name} ${r.sub.join(' ')}`, r.instead);
    }
    return null;
  };
}

export const cargoLogin: Row = (args, cmd) =>
  positionals(args)[0] === 'login' && positionals(args).length === 1 && !cmd.stdinRedirected && !hasAny(args, HELP)
    ? login(
        'cargo login without a token',
        'The token can be given on stdin or in CARGO_REGISTRY_TOKEN: `cargo login < token.txt`.',
      )
    : null;

export const su: Row = (args, cmd) =>
  hasAny(args, ['-c', '--command', ...HELP]) || cmd.stdinRedirected
    ? null
    : login('su', 'A single command can run with `sudo -n <command>` where passwordless sudo is set up.');

export const passwd: Row = (args, cmd) =>
  cmd.stdinRedirected || hasAny(args, ['-S', '--stdin', '-l', '-u', '-d', '-e', '-S', '--status', ...HELP])
    ? null
    : login('passwd', 'A password can be set without a prompt with `chpasswd` reading `user:password` from stdin.');
