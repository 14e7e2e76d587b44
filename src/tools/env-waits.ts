// Which values of our environment keys make a command wait for a person; shared by the plan's notes and doctor.

/** A pager that returns by itself. `--paging=never` covers delta and bat configured not to page. */
export function pagerWaits(value: string): boolean {
  const v = value.trim();
  if (v === '' || v === 'cat' || v === 'true' || v === ':') return false;
  return !/--paging[= ]never\b/.test(v);
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
