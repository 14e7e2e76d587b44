// The read-only SQLite reader on OpenCode 1.18.33's real database, WAL included.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { columnsOf, SqliteReader } from '../../src/audit/sqlite.ts';
import { transcripts } from './fixtures.ts';

function table(db: SqliteReader, name: string): Array<Record<string, unknown>> {
  const cols = columnsOf(db, name) as string[];
  return [...db.rows(db.rootPage(name) as number)].map((row) => Object.fromEntries(cols.map((c, i) => [c, row[i]])));
}

describe('SqliteReader', () => {
  it('reads every row of the session, message and part tables in insertion order, with overflow pages', () => {
    const db = new SqliteReader(join(transcripts, 'opencode', 'opencode.db'));
    try {
      const sessions = table(db, 'session');
      expect(sessions.map((s) => s.directory)).toEqual(['/home/dev/loop', '/home/dev/progress']);
      expect(table(db, 'message')).toHaveLength(16);
      const parts = table(db, 'part');
      expect(parts).toHaveLength(44);
      expect(parts.every((p) => typeof p.data === 'string' && JSON.parse(p.data as string))).toBe(true);
      // Insertion order: OpenCode's ids are time-ordered, so they ascend.
      const ids = parts.filter((p) => p.session_id === sessions[0]?.id).map((p) => p.id as string);
      expect([...ids].sort()).toEqual(ids);
      expect(table(db, 'migration').length).toBe(38);
    } finally {
      db.close();
    }
  });

  it('rows larger than a page, through their overflow pages, and interior pages (a 1 KB-page file written by SQLite)', () => {
    const db = new SqliteReader(join(transcripts, 'sqlite', 'overflow.db'));
    try {
      const rows = table(db, 'part');
      expect(rows).toHaveLength(120);
      rows.forEach((r, i) => {
        expect(r.id).toBe(`p${String(i).padStart(4, '0')}`);
        expect(r.n).toBe(i * 1000003);
        expect(r.data).toBe(`${i}:${'abcdefghij'.repeat((i % 5) * 60 + 1)}`);
      });
    } finally {
      db.close();
    }
  });

  it('applies committed WAL frames (the change exists only in opencode.db-wal)', () => {
    const db = new SqliteReader(join(transcripts, 'opencode-wal', 'opencode.db'));
    try {
      expect(table(db, 'session').map((s) => s.directory)).toEqual(['/home/dev/moved', '/home/dev/progress']);
    } finally {
      db.close();
    }
  });

  it('ignores WAL frames from an older generation (salts that do not match the header)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lg-sqlite-'));
    copyFileSync(join(transcripts, 'opencode-wal', 'opencode.db'), join(dir, 'opencode.db'));
    const wal = readFileSync(join(transcripts, 'opencode-wal', 'opencode.db-wal'));
    wal.writeUInt32BE((wal.readUInt32BE(16) + 1) >>> 0, 16); // new salt in the header: every frame is stale
    writeFileSync(join(dir, 'opencode.db-wal'), wal);
    const db = new SqliteReader(join(dir, 'opencode.db'));
    try {
      expect(table(db, 'session').map((s) => s.directory)).toEqual(['/home/dev/loop', '/home/dev/progress']);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file that is not a database', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lg-sqlite-'));
    writeFileSync(join(dir, 'x.db'), 'hello');
    expect(() => new SqliteReader(join(dir, 'x.db'))).toThrow(/not an SQLite database/);
    rmSync(dir, { recursive: true, force: true });
  });
});
