// State on Windows, tested on Linux with Windows-shaped inputs: the state folder from %LOCALAPPDATA% (drive letters,
// spaces, \\?\ long paths, Git Bash's /c/… form), renames over a file another process holds open (EBUSY/EPERM), no
// O_NOFOLLOW, no uid for the code cache, and the hand-off note under a Windows repository path.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, win32 } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { currentUid, readCache, trustedDir, writeCache } from '../../src/guard/code-cache.ts';
import { handoffPaths } from '../../src/guard/handoff-note.ts';
import { busyCodes, openNoFollow, renameReplacing } from '../../src/guard/replace-file.ts';
import { resolveStateDir, windowsAbsolute } from '../../src/guard/state-dir.ts';

const noHome = () => {
  throw new Error('the home folder was not needed');
};

describe('resolveStateDir on Windows', () => {
  it('uses %LOCALAPPDATA%\\loop-guard, with spaces and a drive letter as given', () => {
    const env = { LOCALAPPDATA: 'C:\\Users\\Dev User\\AppData\\Local', XDG_STATE_HOME: '/home/dev/.local/state' };
    expect(resolveStateDir(env, 'win32', noHome)).toBe('C:\\Users\\Dev User\\AppData\\Local\\loop-guard');
    expect(resolveStateDir({ LOCALAPPDATA: 'D:/Profiles/dev/AppData/Local' }, 'win32', noHome)).toBe(
      'D:\\Profiles\\dev\\AppData\\Local\\loop-guard',
    );
  });

  it('keeps a \\\\?\\ long-path prefix and a UNC share', () => {
    const long = `\\\\?\\C:\\Users\\${'a-very-long-folder-name\\'.repeat(12)}AppData\\Local`;
    const dir = resolveStateDir({ LOCALAPPDATA: long }, 'win32', noHome);
    expect(dir.startsWith('\\\\?\\C:\\Users\\')).toBe(true);
    expect(dir.endsWith('\\AppData\\Local\\loop-guard')).toBe(true);
    expect(dir.length).toBeGreaterThan(260);
    expect(resolveStateDir({ LOOP_GUARD_STATE_DIR: '\\\\server\\share\\lg' }, 'win32', noHome)).toBe(
      '\\\\server\\share\\lg',
    );
  });

  it('LOOP_GUARD_STATE_DIR first; Git Bash /c/… read as C:\\…; relative and drive-relative values ignored', () => {
    const local = { LOCALAPPDATA: 'C:\\Users\\dev\\AppData\\Local' };
    expect(resolveStateDir({ ...local, LOOP_GUARD_STATE_DIR: 'E:\\lg state' }, 'win32', noHome)).toBe('E:\\lg state');
    expect(resolveStateDir({ ...local, LOOP_GUARD_STATE_DIR: '/c/Users/dev/lg' }, 'win32', noHome)).toBe(
      'C:\\Users\\dev\\lg',
    );
    for (const bad of ['state', '.\\state', 'C:state', '\\state'])
      expect(resolveStateDir({ ...local, LOOP_GUARD_STATE_DIR: bad }, 'win32', noHome)).toBe(
        'C:\\Users\\dev\\AppData\\Local\\loop-guard',
      );
  });

  it('falls back to %USERPROFILE%, then the home folder; never to XDG or ~/.local/state', () => {
    expect(resolveStateDir({ USERPROFILE: 'C:\\Users\\Dev User' }, 'win32', noHome)).toBe(
      'C:\\Users\\Dev User\\AppData\\Local\\loop-guard',
    );
    expect(resolveStateDir({ XDG_STATE_HOME: 'C:\\x' }, 'win32', () => 'C:\\Users\\dev')).toBe(
      win32.join('C:\\Users\\dev', 'AppData', 'Local', 'loop-guard'),
    );
  });

  it('leaves POSIX as it was', () => {
    expect(resolveStateDir({ LOCALAPPDATA: 'C:\\x', XDG_STATE_HOME: '/x' }, 'linux', noHome)).toBe('/x/loop-guard');
    expect(resolveStateDir({}, 'darwin', () => '/Users/dev')).toBe('/Users/dev/.local/state/loop-guard');
  });

  it('windowsAbsolute: which values name a folder whatever the current directory', () => {
    expect(windowsAbsolute('c:\\x')).toBe('c:\\x');
    expect(windowsAbsolute('/d')).toBe('D:\\');
    expect(windowsAbsolute('//server/share')).toBe('//server/share');
    for (const v of ['', 'x', 'C:', 'C:x', '\\x', '/', '/tmp/x']) expect(windowsAbsolute(v), v).toBeUndefined();
  });
});

describe('renameReplacing: a file held open by another process', () => {
  const busy = (code: string, times: number) => {
    let n = 0;
    const calls: string[] = [];
    return {
      calls,
      rename: (a: string, b: string) => {
        calls.push(`${a}->${b}`);
        if (n++ < times) throw Object.assign(new Error(code), { code });
      },
    };
  };

  it.each(['EBUSY', 'EPERM', 'EACCES'])('on Windows, %s is retried until the holder lets go', (code) => {
    const waits: number[] = [];
    const r = busy(code, 3);
    renameReplacing('C:\\s\\a.json.tmp', 'C:\\s\\a.json', 'win32', r.rename, (ms) => waits.push(ms));
    expect(r.calls).toHaveLength(4);
    expect(waits).toEqual([2, 4, 8]);
  });

  it('gives up after about 60 ms, with the error, so the hook fails open', () => {
    const waits: number[] = [];
    const r = busy('EBUSY', 99);
    expect(() => renameReplacing('a', 'b', 'win32', r.rename, (ms) => waits.push(ms))).toThrow('EBUSY');
    expect(r.calls).toHaveLength(6);
    expect(waits.reduce((a, b) => a + b, 0)).toBe(62);
  });

  it('does not retry elsewhere, nor other errors on Windows', () => {
    const linux = busy('EBUSY', 1);
    expect(() => renameReplacing('a', 'b', 'linux', linux.rename, () => {})).toThrow('EBUSY');
    expect(linux.calls).toHaveLength(1);
    const missing = busy('ENOENT', 1);
    expect(() => renameReplacing('a', 'b', 'win32', missing.rename, () => {})).toThrow('ENOENT');
    expect(missing.calls).toHaveLength(1);
    expect(busyCodes('linux')).toEqual([]);
    expect(busyCodes('win32')).toEqual(['EPERM', 'EACCES', 'EBUSY']);
  });
});

describe('without O_NOFOLLOW (Windows)', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a symbolic link by an lstat first, and opens a plain file', () => {
    dir = mkdtempSync(join(tmpdir(), 'lg win '));
    writeFileSync(join(dir, 'real.json'), '{}');
    symlinkSync(join(dir, 'real.json'), join(dir, 'link.json'));
    expect(() => openNoFollow(join(dir, 'link.json'), 0, undefined, 0)).toThrow(/ELOOP/);
    const fd = openNoFollow(join(dir, 'real.json'), 0, undefined, 0);
    expect(fd).toBeGreaterThan(2);
    // With O_NOFOLLOW (POSIX) the kernel refuses the link itself.
    expect(() => openNoFollow(join(dir, 'link.json'), 0)).toThrow();
  });
});

describe('the V8 code cache on Windows', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('has no uid there, so no cache is read or written: ownership cannot be checked', () => {
    expect(currentUid({})).toBeUndefined();
    expect(currentUid({ getuid: () => 1000 })).toBe(1000);
    dir = mkdtempSync(join(tmpdir(), 'lg-cache-'));
    mkdirSync(join(dir, 'state'), { mode: 0o700 });
    const state = join(dir, 'state');
    const uid = process.getuid!();
    expect(trustedDir(state, uid)).toBe(true);
    // The same folder, as a Windows process sees it.
    expect(trustedDir(state, null)).toBe(false);
    writeCache(state, 'k1', 1, Buffer.from('bytes'), null);
    expect(readCache(state, 'k1', uid).data).toBeUndefined();
    writeCache(state, 'k1', 1, Buffer.from('bytes'), uid);
    expect(readCache(state, 'k1', uid).data?.toString()).toBe('bytes');
    expect(readCache(state, 'k1', null).data).toBeUndefined();
  });
});

describe('the hand-off note under a Windows repository path', () => {
  const repo = 'C:\\Users\\Dev User\\source\\repos\\my app';
  const exists = (p: string) => p === `${repo}\\.git`;

  it('walks up from a sub-folder to the repository, and names .agents\\handoff.md there', () => {
    expect(handoffPaths(`${repo}\\src\\lib`, {}, 'win32', exists)).toEqual({
      root: repo,
      dir: `${repo}\\.agents`,
      md: `${repo}\\.agents\\handoff.md`,
      json: `${repo}\\.agents\\handoff.json`,
    });
    // Forward slashes, as Git Bash and many tools write them, name the same folders.
    expect(handoffPaths('C:/Users/Dev User/source/repos/my app/src', {}, 'win32', exists)?.md).toBe(
      `${repo}\\.agents\\handoff.md`,
    );
  });

  it('keeps a \\\\?\\ long path; outside any repository there is no note', () => {
    const long = `\\\\?\\D:\\${'deep-folder\\'.repeat(30)}proj`;
    const paths = handoffPaths(`${long}\\src`, {}, 'win32', (p) => p === `${long}\\.git`);
    expect(paths?.md).toBe(`${long}\\.agents\\handoff.md`);
    expect(paths!.md.length).toBeGreaterThan(260);
    expect(handoffPaths('C:\\Users\\dev\\Downloads', {}, 'win32', () => false)).toBeUndefined();
  });

  it('LOOP_GUARD_HANDOFF_DIR: a drive path is used, a relative one is not', () => {
    expect(handoffPaths('C:\\x', { LOOP_GUARD_HANDOFF_DIR: 'E:\\replay dir' }, 'win32', () => false)?.md).toBe(
      'E:\\replay dir\\.agents\\handoff.md',
    );
    expect(handoffPaths('C:\\x', { LOOP_GUARD_HANDOFF_DIR: 'replay' }, 'win32', () => false)).toBeUndefined();
    expect(handoffPaths('/home/dev/p', { LOOP_GUARD_HANDOFF_DIR: '/tmp/r' }, 'linux', () => false)?.md).toBe(
      '/tmp/r/.agents/handoff.md',
    );
  });
});
