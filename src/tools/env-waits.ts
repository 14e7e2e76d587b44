// Which values of our environment keys make a command wait for a person; shared by the plan's notes and doctor.

/** Programs that page to the terminal and wait for a key (delta and bat page through less unless told not to). */
const INTERACTIVE_PAGERS = new Set([
  'pager',
  'sensible-pager',
  'less',
  'more',
  'most',
  'pg',
  'lv',
  'w3m',
  'moar',
  'moor',
  'ov',
  'vi',
  'vim',
  'nvim',
  'view',
  'vimpager',
  'nvimpager',
  'bat',
  'batcat',
  'delta',
  'diff-highlight-less',
]);

/**
 * A pager that waits for a person: some stage of the pager pipeline is a known interactive pager, not told
 * `--paging=never`. Anything else (cat, a filter, or a value that is not a program, like `5`) returns by itself.
 */
export function pagerWaits(value: string): boolean {
  const v = value.trim();
  if (v === '' || /--paging[= ]never\b/.test(v)) return false;
  return v.split('|').some((stage) => {
    const words = stage
      .trim()
      .split(/\s+/)
      .filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    const program =
      (words[0] ?? '')
        .replace(/^['"]|['"]$/g, '')
        .split('/')
        .pop() ?? '';
    return INTERACTIVE_PAGERS.has(program);
  });
}

/** An editor that returns without a person. */
export function editorWaits(value: string): boolean {
  const v = value.trim();
  return !(v === 'true' || v === ':');
}

/** Whether a user's own value for one of our keys leaves agents waiting for a person. */
export function valueWaits(key: string, value: string): boolean {
  if (key === 'GIT_PAGER' || key === 'PAGER') return pagerWaits(value);
  if (key === 'GIT_EDITOR') return editorWaits(value);
  if (key === 'GIT_TERMINAL_PROMPT') return value.trim() !== '0';
  return false;
}
