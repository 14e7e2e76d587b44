// Manual pages and info documents: shown in a pager that waits, unless they are printed or asked for a path.
import { HELP, optionPart, positionals, startsAny } from './argv.ts';
import type { Row } from './types.ts';

export const MAN_INSTEAD =
  'The page prints and returns with `man -P cat <page>` (or `man <page> | head -n 200`); most commands ' +
  'also print their options with `--help`.';

export const man: Row = (args, cmd, env) => {
  if (cmd.pipedOut || cmd.stdoutToFile || env.has('MANPAGER') || env.has('PAGER')) return null;
  const opts = optionPart(args);
  if (
    startsAny(opts, [
      '-P',
      '--pager',
      '-k',
      '-f',
      '-w',
      '-W',
      '-K',
      '--where',
      '--path',
      '--apropos',
      '--whatis',
      '--where-cat',
      '-t',
      '-T',
      '-H',
      '--html',
      '-Z',
      '--ditroff',
      ...HELP,
    ])
  )
    return null;
  if (opts.some((o) => /^-[a-zA-Z]*[PkfwWKtTHZ]/.test(o))) return null;
  if (
    positionals(
      args,
      new Set(['-M', '-S', '-s', '-L', '-m', '-C', '-E', '-R', '-p', '-e', '--sections', '--locale', '--manpath']),
    ).length === 0
  )
    return null;
  return {
    rule: 'manual',
    why: `man shows the page in a pager that waits for keys to scroll and quit. ${MAN_INSTEAD}`,
  };
};

export const info: Row = (args, cmd) =>
  cmd.pipedOut ||
  cmd.stdoutToFile ||
  startsAny(optionPart(args), ['-o', '--output', '-w', '--where', '--location', ...HELP])
    ? null
    : {
        rule: 'manual',
        why:
          'info opens an interactive browser that waits for keys. `info <topic> | cat` (or `info -o - ' +
          '<topic>`) prints the node and returns.',
      };
