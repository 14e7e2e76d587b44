// Where the body lies in the guard file, as the hook reads it: a checkout may have put a CR before each LF.
const OPEN = '\n/*@loop-guard-body';
const CLOSE = '\n*/';

// The body's [start, end) without its marks and their line endings; null when the hook would find none.
export function bodyRange(buf: Buffer): [number, number] | null {
  const open = buf.lastIndexOf(OPEN);
  let start = open + OPEN.length;
  if (buf[start] === 13) start++;
  let end = buf.lastIndexOf(CLOSE);
  if (buf[end - 1] === 13) end--;
  return open < 0 || buf[start] !== 10 || end <= start ? null : [start + 1, end];
}
