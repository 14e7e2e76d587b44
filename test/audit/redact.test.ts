// --redact keeps each simple command's program name only, read by the guard's shell splitter.
import { describe, expect, it } from 'vitest';
import { redactCommand } from '../../src/audit/redact.ts';

describe('redactCommand', () => {
  it.each([
    ['echo ran >> ran.txt; ls /definitely-missing-dir', 'echo …; ls …'],
    ['npm test -- --grep foo && cat /etc/x', 'npm …; cat …'],
    ['FOO=bar sudo /usr/bin/apt install x', 'sudo apt …'],
    ['ls', 'ls'],
    ['git log --oneline | head -5', 'git … | head …'],
  ])('%s → %s', (command, redacted) => {
    expect(redactCommand(command)).toBe(redacted);
  });

  it('a quoted separator does not leak the words after it', () => {
    const r = redactCommand('echo "token=abc123; rm -rf /home/me/secret" | tee log');
    expect(r).toBe('echo … | tee …');
    expect(r).not.toMatch(/rm|secret|abc123/);
  });

  it('commands inside $(…) are words of the outer command, cut with it', () => {
    expect(redactCommand('cat "$(find /home/me -name id_rsa)"')).toBe('cat …');
  });
});
