// A small JSONC scanner: tokens with offsets and a tree of containers, so edits can be byte splices.

export type TokKind = '{' | '}' | '[' | ']' | ':' | ',' | 'str' | 'num' | 'lit' | 'comment';
export interface Tok {
  kind: TokKind;
  start: number;
  end: number;
}
export interface Container {
  kind: 'object' | 'array';
  start: number;
  /** Offset just past the closing bracket. */
  end: number;
  elems: Elem[];
  parent: Container | null;
}
export interface Scalar {
  kind: 'scalar';
  start: number;
  end: number;
}
export type CstNode = Container | Scalar;
export interface Elem {
  key?: string;
  /** Offset of the key (members) or of the value (array items). */
  start: number;
  value: CstNode;
  /** Offset of the comma after this element, or -1. */
  comma: number;
}
export interface Cst {
  root: Container;
  toks: Tok[];
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

/** Tokens with offsets, comments included, because splices must land between them. */
export function lex(text: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if ('{}[]:,'.includes(c)) {
      toks.push({ kind: c as TokKind, start: i, end: i + 1 });
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw new SyntaxError(`unterminated string at offset ${i}`);
      toks.push({ kind: 'str', start: i, end: j + 1 });
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      let j = i + 2;
      while (j < text.length && text[j] !== '\n' && text[j] !== '\r') j++;
      toks.push({ kind: 'comment', start: i, end: j });
      i = j;
    } else if (c === '/' && text[i + 1] === '*') {
      const j = text.indexOf('*/', i + 2);
      if (j < 0) throw new SyntaxError(`unterminated comment at offset ${i}`);
      toks.push({ kind: 'comment', start: i, end: j + 2 });
      i = j + 2;
    } else {
      let m: RegExpExecArray | null = null;
      for (const [re, kind] of [
        [NUMBER, 'num'],
        [LITERAL, 'lit'],
      ] as const) {
        re.lastIndex = i;
        m = re.exec(text);
        if (m) {
          toks.push({ kind, start: i, end: i + m[0].length });
          i += m[0].length;
          break;
        }
      }
      if (!m) throw new SyntaxError(`unexpected character at offset ${i}`);
    }
  }
  return toks;
}

/** A concrete syntax tree of offsets only; values come from comment-json. */
export function parseCst(text: string): Cst {
  const toks = lex(text);
  const sig = toks.filter((t) => t.kind !== 'comment');
  let p = 0;
  const fail = (): never => {
    throw new SyntaxError(`unexpected token at offset ${sig[p]?.start ?? text.length}`);
  };
  const value = (parent: Container | null): CstNode => {
    const t = sig[p] ?? fail();
    p++;
    if (t.kind === '{' || t.kind === '[') return container(t, parent);
    if (t.kind === 'str' || t.kind === 'num' || t.kind === 'lit') return { kind: 'scalar', start: t.start, end: t.end };
    p--;
    return fail();
  };
  const container = (open: Tok, parent: Container | null): Container => {
    const c: Container = {
      kind: open.kind === '{' ? 'object' : 'array',
      start: open.start,
      end: -1,
      elems: [],
      parent,
    };
    const closeKind = c.kind === 'object' ? '}' : ']';
    for (;;) {
      const t = sig[p] ?? fail();
      if (t.kind === closeKind) {
        p++;
        c.end = t.end;
        return c;
      }
      let key: string | undefined;
      if (c.kind === 'object') {
        if (t.kind !== 'str') fail();
        key = JSON.parse(text.slice(t.start, t.end)) as string;
        p++;
        if (sig[p]?.kind !== ':') fail();
        p++;
      }
      const elem: Elem = { start: t.start, value: value(c), comma: -1 };
      if (key !== undefined) elem.key = key;
      c.elems.push(elem);
      const after = sig[p] ?? fail();
      if (after.kind === ',') {
        elem.comma = after.start;
        p++;
      } else if (after.kind !== closeKind) {
        fail();
      }
    }
  };
  const root = value(null);
  if (p !== sig.length) fail();
  if (root.kind !== 'object') throw new SyntaxError('the top level is not an object');
  return { root, toks };
}
