// Results from Windows: PowerShell's error records, CLIXML progress, its dates and time spans, CRLF and temp paths.
// What must vanish between identical runs, and what must survive because it is the result.
import { describe, expect, it } from 'vitest';
import { resultKey } from '../../src/guard/core/fingerprint.ts';
import { normalizeOutput } from '../../src/guard/core/normalize.ts';

const same = (a: string, b: string) => expect(resultKey(a)).toBe(resultKey(b));
const differ = (a: string, b: string) => expect(resultKey(a)).not.toBe(resultKey(b));

/** Windows PowerShell 5.1's record for a missing program, with the command line it ran echoed. */
const notFound = (line: string, at: number, name = 'npm') =>
  `${name} : The term '${name}' is not recognized as the name of a cmdlet, function, script file, or operable\r\n` +
  'program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.\r\n' +
  `At line:1 char:${at}\r\n+ ${line}\r\n+ ${' '.repeat(at - 1)}${'~'.repeat(name.length)}\r\n` +
  `    + CategoryInfo          : ObjectNotFound: (${name}:String) [], CommandNotFoundException\r\n` +
  '    + FullyQualifiedErrorId : CommandNotFoundException\r\n \r\n';

describe('PowerShell error records', () => {
  it('a reworded command line gives the same record', () => {
    same(notFound('npm test 2>&1 | Select-Object -Last 20', 1), notFound('npm test', 1));
    same(notFound('cd app; npm test', 9), notFound('Set-Location app; npm test', 19));
  });

  it('keeps the message, the category and the error id', () => {
    const out = normalizeOutput(notFound('npm test', 1));
    expect(out).toContain("The term 'npm' is not recognized");
    expect(out).toContain('CategoryInfo          : ObjectNotFound: (npm:String)');
    expect(out).toContain('FullyQualifiedErrorId : CommandNotFoundException');
    expect(out).not.toContain('char:');
    expect(out).not.toContain('~~~');
    differ(notFound('yarn test', 1, 'yarn'), notFound('npm test', 1));
  });

  it('reads localized records (a real one, Windows PowerShell in Spanish)', () => {
    // From a public OpenCode session recorded on Windows (test/fixtures/PROVENANCE.md, "Windows").
    const es = (pos: string, echo: string) =>
      "2>&1 : El término '2>&1' no se reconoce como nombre de un cmdlet, función, archivo de script o programa " +
      `ejecutable.\n${pos}\n+ ${echo}\n+ ~~~~\n    + CategoryInfo          : ObjectNotFound: (2>&1:String) [], ` +
      'CommandNotFoundException\n    + FullyQualifiedErrorId : CommandNotFoundException\n';
    same(es('En línea: 3 Carácter: 1', '2>&1'), es('En línea: 4 Carácter: 1', '2>&1 '));
    same(notFound('npm test', 1).replace('At line:1 char:1', 'In Zeile:1 Zeichen:1'), notFound('npm t', 1));
    same(notFound('npm test', 1).replace('At line:1 char:1', '発生場所 行:1 文字:1'), notFound('npm t', 1));
  });

  it('keeps a position in a script file: the script, not the command line', () => {
    const script = (n: number) =>
      `Cannot index into a null array.\nAt C:\\repo\\build.ps1:${n} char:5\n+     $parts[0]\n+     ~~~~~~~~\n` +
      '    + FullyQualifiedErrorId : NullArray\n';
    differ(script(12), script(30));
    expect(normalizeOutput(script(12))).toContain('At C:\\repo\\build.ps1:12 char:5');
  });

  it("PowerShell 7's concise view: the echoed line goes, the message stays", () => {
    const pwsh = (line: string, col: number) =>
      `ParserError:\nLine |\n   1 |  ${line}\n     |  ${' '.repeat(col)}~\n     | Missing closing ')' in expression.\n`;
    same(pwsh('Write-Output (1 + 2', 19), pwsh('echo (1 + 2', 11));
    differ(pwsh('echo (1 + 2', 11), pwsh('echo (1 + 2', 11).replace("Missing closing ')'", 'Unexpected token'));
  });

  it('leaves other + and ~ lines alone (a diff, a list)', () => {
    const diff = '@@ -10,2 +10,3 @@\n+ added line\n+ ~/.config/app is read first\n';
    expect(normalizeOutput(diff)).toBe(diff.trimEnd());
    differ('step 1 of 2\n+ npm test\n+ ok', 'step 1 of 3\n+ npm test\n+ ok');
  });
});

describe('CLIXML from a redirected PowerShell', () => {
  // Shape of a real capture: PowerShell started with -EncodedCommand, stderr redirected (PROVENANCE.md, "Windows").
  const progress =
    '<Obj S="progress" RefId="0"><TN RefId="0"><T>System.Management.Automation.PSCustomObject</T><T>System.Object' +
    '</T></TN><MS><I64 N="SourceId">1</I64><PR N="Record"><AV>Preparing modules for first use.</AV><AI>0</AI><Nil />' +
    '<PI>-1</PI><PC>-1</PC><T>Completed</T><SR>-1</SR><SD> </SD></PR></MS></Obj>';
  const clixml = (body: string) =>
    `#< CLIXML\r\n<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04">${body}</Objs>`;
  const error = '<S S="Error">pwsh : The term \'pwsh\' is not recognized_x000D__x000A_</S>';

  it('the first run, with its progress record, equals the next one without', () => {
    same(clixml(progress + error), clixml(error));
  });

  it('keeps the error records', () => {
    differ(clixml(progress + error), clixml(progress + error.replace('pwsh', 'node')));
  });
});

describe('dates and time spans', () => {
  it("Get-Date's long form and day.month.year timestamps", () => {
    same('Tuesday, December 1, 2026 8:21:28 PM\nbuild ok', 'Wednesday, December 2, 2026 9:02:11 AM\nbuild ok');
    same('Gestartet 01.12.2026 20:21:28\nok', 'Gestartet 02.12.2026 07:00:01\nok');
    same('Built on 1 December 2026', 'Built on 3 December 2026');
  });

  it('keeps a date on a line that says what failed, and a version number', () => {
    differ(
      "expected 'Tuesday, December 1, 2026' to be 'Monday, November 30, 2026'",
      "expected 'Tuesday, December 1, 2026' to be 'Monday, November 30, 2025'",
    );
    differ('version 10.12.2024 installed', 'version 10.12.2025 installed');
  });

  it('Measure-Command: every field of the time span', () => {
    const span = (ms: number) =>
      `\r\nDays              : 0\r\nHours             : 0\r\nMinutes           : 0\r\nSeconds           : ${Math.floor(ms / 1000)}\r\n` +
      `Milliseconds      : ${ms % 1000}\r\nTicks             : ${ms * 10000}\r\nTotalDays         : ${ms / 86400000}\r\n` +
      `TotalHours        : ${ms / 3600000}\r\nTotalMinutes      : ${ms / 60000}\r\nTotalSeconds      : ${ms / 1000}\r\n` +
      `TotalMilliseconds : ${ms}\r\n\r\n`;
    same(span(1234), span(987));
    // Without a TotalMilliseconds/TotalSeconds field, "Seconds : 3" is a value like any other.
    differ('Seconds : 3\nRetries : 1', 'Seconds : 4\nRetries : 1');
  });
});

describe('CRLF and Windows temp paths (rules shared with every platform)', () => {
  it('a CRLF result equals its LF twin', () => {
    same('FAIL src/a.test.ts\r\n1 failed\r\n', 'FAIL src/a.test.ts\n1 failed\n');
  });

  it('a new temp dir under AppData\\Local\\Temp is one result; another file there is another', () => {
    const missing = (dir: string, file: string) =>
      `Error: ENOENT: no such file or directory, open 'C:\\Users\\Dev User\\AppData\\Local\\Temp\\${dir}\\${file}'`;
    same(missing('vitest-a8Xk2', 'config.json'), missing('vitest-Q3mZ9', 'config.json'));
    same(missing('tmpab12cd9x', 'out.txt'), missing('tmpzz81kq0p', 'out.txt'));
    differ(missing('vitest-a8Xk2', 'config.json'), missing('vitest-a8Xk2', 'env.json'));
    same(
      'C:\\Users\\RUNNER~1\\AppData\\Local\\Temp\\pytest-of-runneradmin\\pytest-12\\test_load0\\users.csv',
      'C:\\Users\\RUNNER~1\\AppData\\Local\\Temp\\pytest-of-runneradmin\\pytest-13\\test_load0\\users.csv',
    );
  });
});
