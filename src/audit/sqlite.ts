// A minimal read-only SQLite reader: scans a table's rows in rowid order, WAL included. OpenCode (1.18) keeps its
// sessions in ~/.local/share/opencode/opencode.db, and node:sqlite does not exist on Node 20, which users still run.
// Format: https://www.sqlite.org/fileformat2.html. It never writes, never takes a lock, and reads a page at a time.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export type SqlValue = null | number | bigint | string | Uint8Array;

const MAGIC = 'SQLite format 3\u0000';

export class SqliteReader {
  private readonly fd: number;
  private readonly walFd: number | undefined;
  readonly pageSize: number;
  private readonly usable: number;
  /** Page number → byte offset of its newest committed copy in the WAL. */
  private readonly walPages = new Map<number, number>();
  private readonly decoder = new TextDecoder();

  constructor(path: string) {
    this.fd = openSync(path, 'r');
    try {
      const head = Buffer.alloc(100);
      if (readSync(this.fd, head, 0, 100, 0) < 100 || head.toString('latin1', 0, 16) !== MAGIC)
        throw new Error('not an SQLite database');
      const ps = head.readUInt16BE(16);
      this.pageSize = ps === 1 ? 65536 : ps;
      this.usable = this.pageSize - head[20]!;
      let walFd: number | undefined;
      try {
        walFd = openSync(`${path}-wal`, 'r');
      } catch {
        walFd = undefined;
      }
      this.walFd = walFd;
      if (walFd !== undefined) this.loadWal(walFd);
    } catch (err) {
      this.close();
      throw err;
    }
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    if (this.walFd !== undefined) {
      try {
        closeSync(this.walFd);
      } catch {
        // already closed
      }
    }
  }

  /** Frames up to the last commit whose salts match the header; later or stale frames are not part of the database. */
  private loadWal(fd: number): void {
    const size = fstatSync(fd).size;
    if (size < 32) return;
    const head = Buffer.alloc(32);
    readSync(fd, head, 0, 32, 0);
    const magic = head.readUInt32BE(0);
    if ((magic !== 0x377f0682 && magic !== 0x377f0683) || head.readUInt32BE(8) !== this.pageSize) return;
    const salt1 = head.readUInt32BE(16);
    const salt2 = head.readUInt32BE(20);
    const frame = Buffer.alloc(24);
    const pending = new Map<number, number>();
    for (let off = 32; off + 24 + this.pageSize <= size; off += 24 + this.pageSize) {
      readSync(fd, frame, 0, 24, off);
      if (frame.readUInt32BE(8) !== salt1 || frame.readUInt32BE(12) !== salt2) break;
      pending.set(frame.readUInt32BE(0), off + 24);
      if (frame.readUInt32BE(4) !== 0) {
        for (const [page, at] of pending) this.walPages.set(page, at);
        pending.clear();
      }
    }
  }

  private page(n: number): Buffer {
    const buf = Buffer.alloc(this.pageSize);
    const wal = this.walPages.get(n);
    if (wal !== undefined && this.walFd !== undefined) readSync(this.walFd, buf, 0, this.pageSize, wal);
    else readSync(this.fd, buf, 0, this.pageSize, (n - 1) * this.pageSize);
    return buf;
  }

  /** Root page of a table, from sqlite_master. */
  rootPage(table: string): number | undefined {
    for (const row of this.rows(1)) {
      if (row[0] === 'table' && row[1] === table && typeof row[3] === 'number') return row[3];
    }
    return undefined;
  }

  /** Every row of the table b-tree at `root`, in rowid order (for a rowid table: insertion order). */
  *rows(root: number): Generator<SqlValue[]> {
    const stack: number[] = [root];
    const seen = new Set<number>();
    while (stack.length > 0) {
      const n = stack.pop() as number;
      // A corrupt file could point a page at itself; each page is visited once.
      if (seen.has(n) || n < 1) continue;
      seen.add(n);
      const page = this.page(n);
      const base = n === 1 ? 100 : 0;
      const type = page[base];
      const cells = page.readUInt16BE(base + 3);
      if (type === 5) {
        const children: number[] = [];
        for (let i = 0; i < cells; i++) children.push(page.readUInt32BE(page.readUInt16BE(base + 12 + 2 * i)));
        children.push(page.readUInt32BE(base + 8));
        // Pushed in reverse so the leftmost child is scanned first.
        for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as number);
      } else if (type === 13) {
        for (let i = 0; i < cells; i++) yield this.cell(page, page.readUInt16BE(base + 8 + 2 * i));
      } else {
        throw new Error(`unexpected b-tree page type ${type} at page ${n}`);
      }
    }
  }

  private cell(page: Buffer, off: number): SqlValue[] {
    let [size, p] = varint(page, off);
    [, p] = varint(page, p);
    const total = Number(size);
    const x = this.usable - 35;
    let local = total;
    if (total > x) {
      const m = Math.floor(((this.usable - 12) * 32) / 255) - 23;
      const k = m + ((total - m) % (this.usable - 4));
      local = k <= x ? k : m;
    }
    let payload: Buffer;
    if (local === total) payload = page.subarray(p, p + total);
    else {
      payload = Buffer.alloc(total);
      page.copy(payload, 0, p, p + local);
      let filled = local;
      let next = page.readUInt32BE(p + local);
      const guard = new Set<number>();
      while (filled < total && next !== 0 && !guard.has(next)) {
        guard.add(next);
        const ov = this.page(next);
        const take = Math.min(this.usable - 4, total - filled);
        ov.copy(payload, filled, 4, 4 + take);
        filled += take;
        next = ov.readUInt32BE(0);
      }
    }
    return this.record(payload);
  }

  private record(buf: Buffer): SqlValue[] {
    const [hsize, start] = varint(buf, 0);
    const types: number[] = [];
    let p = start;
    while (p < Number(hsize)) {
      const [t, q] = varint(buf, p);
      types.push(Number(t));
      p = q;
    }
    let d = Number(hsize);
    const out: SqlValue[] = [];
    for (const t of types) {
      if (t === 0) out.push(null);
      else if (t >= 1 && t <= 6) {
        const len = [0, 1, 2, 3, 4, 6, 8][t] as number;
        if (len <= 6) out.push(buf.readIntBE(d, len));
        else {
          const big = buf.readBigInt64BE(d);
          out.push(
            big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big,
          );
        }
        d += len;
      } else if (t === 7) {
        out.push(buf.readDoubleBE(d));
        d += 8;
      } else if (t === 8 || t === 9) out.push(t - 8);
      else if (t >= 12 && t % 2 === 0) {
        const len = (t - 12) / 2;
        out.push(buf.subarray(d, d + len));
        d += len;
      } else if (t >= 13) {
        const len = (t - 13) / 2;
        out.push(this.decoder.decode(buf.subarray(d, d + len)));
        d += len;
      } else out.push(null);
    }
    return out;
  }
}

/** SQLite's big-endian varint (1–9 bytes). */
function varint(buf: Buffer, off: number): [bigint | number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const b = buf[off + i] as number;
    v = v * 128 + (b & 0x7f);
    if (b < 0x80) return [v, off + i + 1];
  }
  v = v * 256 + (buf[off + 8] as number);
  return [v, off + 9];
}

/** Column names of a table, from its CREATE TABLE statement (enough for the plain DDL OpenCode writes). */
export function columnsOf(reader: SqliteReader, table: string): string[] | undefined {
  for (const row of reader.rows(1)) {
    if (row[0] !== 'table' || row[1] !== table || typeof row[4] !== 'string') continue;
    const sql = row[4];
    // Split the definitions on top-level commas (a constraint's column list has its own parentheses).
    const parts: string[] = [];
    let depth = 0;
    let start = sql.indexOf('(') + 1;
    for (let i = start; i < sql.length; i++) {
      const ch = sql[i];
      if (ch === '(') depth++;
      else if (ch === ')' && depth-- === 0) {
        parts.push(sql.slice(start, i));
        break;
      } else if (ch === ',' && depth === 0) {
        parts.push(sql.slice(start, i));
        start = i + 1;
      }
    }
    const cols: string[] = [];
    for (const part of parts) {
      const m = /^\s*[`"[]?([A-Za-z_][A-Za-z0-9_]*)[`"\]]?\s/.exec(part);
      if (m && !/^(CONSTRAINT|PRIMARY|FOREIGN|UNIQUE|CHECK)$/i.test(m[1] as string)) cols.push(m[1] as string);
    }
    return cols;
  }
  return undefined;
}
