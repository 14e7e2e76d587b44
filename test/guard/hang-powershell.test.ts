// PowerShell and cmd command lines: what waits for a person or never exits is refused, its everyday forms run.
// The lines marked "real" are from public sessions recorded on Windows (test/fixtures/PROVENANCE.md, "Windows").
import { describe, expect, it } from 'vitest';
import { checkHang, type HangContext } from '../../src/guard/core/hang/rules.ts';
import { powershellStatements } from '../../src/guard/core/hang/powershell.ts';
import { TOOL_FACTS } from '../../src/guard/adapters/index.ts';

const claude: HangContext = { ...TOOL_FACTS.claude, background: false };
const codex: HangContext = { ...TOOL_FACTS.codex, background: false };

const REFUSED: ReadonlyArray<readonly [string, string, string]> = [
  ['Read-Host "Enter the version"', 'prompt', '$env:NAME'],
  ['read-host -Prompt "Password" -AsSecureString', 'prompt', 'asking for a secret'],
  ['$name = Read-Host "Name"; Write-Output $name', 'prompt', 'parameter'],
  ['$x=Read-Host', 'prompt', 'parameter'],
  ['if ($true) { Read-Host "again?" }', 'prompt', 'parameter'],
  ['[void](Read-Host "Press Enter")', 'prompt', 'parameter'],
  ['Get-Credential', 'prompt', 'ConvertTo-SecureString'],
  ['$cred = Get-Credential -UserName admin', 'prompt', 'ConvertTo-SecureString'],
  ['npm run build; pause', 'prompt', 'left out'],
  ['PAUSE', 'prompt', 'left out'],
  ['cmd /c pause', 'prompt', 'left out'],
  ['cmd //c "build.bat & pause"', 'prompt', 'left out'],
  ['choice /c yn /m "Deploy?"', 'prompt', '/t 5 /d Y'],
  ['$Host.UI.ReadLine()', 'prompt', 'parameter'],
  ['$null = $Host.UI.RawUI.ReadKey("NoEcho,IncludeKeyDown")', 'prompt', 'parameter'],
  ['[Console]::ReadKey($true)', 'prompt', 'parameter'],
  ['[System.Console]::ReadLine()', 'prompt', 'parameter'],
  ['Get-Process | Out-GridView -PassThru | Stop-Process', 'prompt', 'Format-Table'],
  ['Get-Service | ogv -Wait', 'prompt', 'Format-Table'],
  ['Show-Command Get-ChildItem', 'prompt', 'directly'],
  ['Start-Process notepad.exe -ArgumentList notes.txt -Wait', 'prompt', 'Without -Wait'],
  ['Start-Process powershell -Verb RunAs -Wait', 'prompt', 'UAC'],
  ['saps pwsh -Wait', 'prompt', 'Without -Wait'],
  ['start /wait notepad notes.txt', 'prompt', 'Without -Wait'],
  ['notepad', 'editor', 'Set-Content'],
  ['notepad.exe C:\\Users\\Dev User\\notes.txt', 'editor', 'Set-Content'],
  ['& "C:\\Program Files\\Notepad++\\notepad++.exe" README.md', 'editor', 'Set-Content'],
  ['C:\\Windows\\System32\\notepad.exe .env', 'editor', 'Set-Content'],
  ['Get-Content app.log -Wait', 'follow', '-Tail 50'],
  ['gc .\\server.log -Tail 20 -Wait', 'follow', '-Tail 50'],
  ['cat build.log -wait', 'follow', '-Tail 50'],
  ['type out.txt -Wai', 'follow', '-Tail 50'],
  ['Get-Content (Join-Path $env:LOCALAPPDATA "app\\log.txt") -Wait:$true', 'follow', '-Tail 50'],
  ['GET-CONTENT -Path x.log -WAIT | Select-String error', 'follow', '-Tail 50'],
  ['Wait-Event -SourceIdentifier FileCreated', 'endless', '-Timeout 30'],
  ['ping -t 10.0.0.1', 'endless', 'ping -n 4'],
  ['Get-Help Get-Item -Full | Out-Host -Paging', 'pager', 'Without -Paging'],
  ['Enter-PSSession -ComputerName build01', 'remote-shell', 'Invoke-Command'],
  ['powershell', 'repl', '-Command'],
  ['pwsh -NoProfile', 'repl', '-Command'],
  ['pwsh -NoExit -Command "cd src"', 'repl', 'Without -NoExit'],
  ['cmd', 'repl', 'cmd /c'],
  ['cmd /k build.bat', 'repl', 'cmd /c'],
  ['powershell -NoProfile -Command "Read-Host x"', 'prompt', 'parameter'],
  ["pwsh -c 'Get-Content log.txt -Wait'", 'follow', '-Tail 50'],
  // Unix editors and pagers in a PowerShell line are still found by the POSIX rules.
  ['Set-Location C:\\repo; vim .\\src\\app.ts', 'editor', 'sed -i'],
  ['git log | more', 'pager', 'head -n 100'],
];

const ALLOWED: readonly string[] = [
  // the non-interactive forms
  'Get-Content app.log -Tail 50',
  'Get-Content -Path .\\logs\\app.log -TotalCount 20',
  'gc package.json | ConvertFrom-Json | Select-Object -ExpandProperty version',
  'Get-Content build.log -Wait:$false',
  'Get-Content x.log -WarningAction SilentlyContinue',
  'Get-Content x.log -wa 0',
  'Start-Process notepad notes.txt',
  'Start-Process -FilePath msiexec -ArgumentList "/i app.msi /quiet" -Wait',
  'Start-Process -Wait -NoNewWindow npm -ArgumentList "test"',
  'Start-Process powershell -ArgumentList "-File build.ps1" -Wait',
  'start notepad',
  'Wait-Event -SourceIdentifier FileCreated -Timeout 30',
  'Wait-Job $job',
  'ping -n 4 10.0.0.1',
  'ping -t 5 -c 3 10.0.0.1',
  'Get-Process | Out-GridView',
  'Get-Help Get-Item -Full | Out-Host',
  'powershell -NoProfile -ExecutionPolicy Bypass -File .\\scripts\\build.ps1',
  'pwsh -NoProfile -Command "Get-ChildItem -Recurse -Filter *.ts | Measure-Object"',
  'pwsh -EncodedCommand SQBuAHYAbwBrAGUA',
  'cmd /c "npm run build"',
  'cmd.exe /c dir /b',
  'choice /c yn /t 5 /d y',
  'Start-Job { Read-Host "never" }',
  'Start-Job -ScriptBlock { Get-Content app.log -Wait }',
  'Get-Content app.log -Wait &',
  // quoted or mentioned, never run
  'Write-Output "Read-Host"',
  "Write-Host 'press any key: pause'",
  'Select-String -Path *.ps1 -Pattern "Read-Host|Get-Credential"',
  "'notepad' | Out-File names.txt",
  'Write-Output "[Console]::ReadLine()"',
  "Write-Output '$Host.UI.ReadLine()'",
  '"C:\\Windows\\notepad.exe"',
  '# pause here\nnpm test',
  '<# Read-Host #> npm test',
  "@'\nRead-Host\nnotepad\n'@ | Set-Content notes.txt",
  'Get-ChildItem Env: | Where-Object Name -like "*PAUSE*"',
  'docker pause web',
  'git stash list',
  // real lines from Windows sessions
  'php artisan test --filter="PortalEstudianteTest::test_portal_con_autenticacion" --verbose 2>&1 | Select-String -Pattern "401|Unauthenticated" -Context 0,0',
  'Get-ChildItem -Force | Measure-Object | Select-Object -ExpandProperty Count',
  'Get-ChildItem $env:CODEX_HOME/skills',
  'Set-Content -Path a.txt -Value x',
  'Invoke-Pester -Path tests',
  'python clickup.py lists',
  'Get-Location',
  // real (Claude Code's Bash tool on Windows, JanDeDobbeleer/oh-my-posh's sessions): a POSIX heredoc whose text
  // quotes `{{ cmd … }}` is no cmd prompt
  "git commit -m \"$(cat <<'EOF'\nfix(path): prevent folder names from executing as templates\n\nA directory named " +
    'with literal template syntax (e.g. "{{ cmd `whoami` }}") reached the shared\nfunc map.\nEOF\n)"\ngit log -1 --stat',
];

describe('PowerShell hang rules: refused', () => {
  it.each(REFUSED.map(([c, r, t]) => [c, r, t]))('%j → %s', (command, rule, alternative) => {
    const verdict = checkHang(command, claude);
    expect(verdict?.rule).toBe(rule);
    expect(verdict!.message).toMatch(/^loop-guard: `/);
    expect(verdict!.message).toContain('was not run');
    expect(verdict!.message).toContain(alternative);
    expect(verdict!.message.length).toBeLessThan(600);
  });

  it('is case-insensitive, as PowerShell is', () => {
    for (const c of ['READ-HOST x', 'read-host x', 'Read-Host x', 'GET-CREDENTIAL', 'Pause', 'NOTEPAD.EXE f'])
      expect(checkHang(c, claude), c).not.toBeNull();
  });

  it('lets Codex, which hands control back, run the followers but not the prompts', () => {
    expect(checkHang('Get-Content app.log -Wait', codex)).toBeNull();
    expect(checkHang('Wait-Event -SourceIdentifier x', codex)).toBeNull();
    expect(checkHang('Read-Host "x"', codex)?.rule).toBe('prompt');
    expect(checkHang('notepad x.txt', codex)?.rule).toBe('editor');
    expect(checkHang('Get-Content app.log -Wait', { ...claude, background: true })).toBeNull();
  });
});

describe('PowerShell hang rules: allowed', () => {
  it.each(ALLOWED.map((c) => [c]))('%j runs', (command) => {
    expect(checkHang(command, claude)).toBeNull();
  });
});

describe('powershellStatements', () => {
  it('splits on ; | && || and newlines, and reads groups as one argument', () => {
    const st = powershellStatements(
      'Get-Content (Join-Path $d "a b.log") -Wait | Select-Object -Last 5; npm test && echo ok',
    );
    expect(st.map((s) => s.words)).toEqual([
      ['Join-Path', '$d', 'a b.log'],
      ['Get-Content', '(…)', '-Wait'],
      ['Select-Object', '-Last', '5'],
      ['npm', 'test'],
      ['echo', 'ok'],
    ]);
  });

  it("removes PowerShell's quotes ('' and `\" escapes) and keeps backslashes", () => {
    const st = powershellStatements('Write-Output \'it\'\'s\' "say `"hi`"" C:\\Users\\x');
    expect(st[0]!.words).toEqual(['Write-Output', "it's", 'say "hi"', 'C:\\Users\\x']);
    expect(st[0]!.quoted).toEqual([false, true, true, false]);
  });

  it('marks job blocks and a trailing & as detached', () => {
    const st = powershellStatements('Start-Job { Read-Host }; Get-Content x -Wait &');
    expect(st.map((s) => [s.words[0], s.detached])).toEqual([
      ['Read-Host', true],
      ['Start-Job', false],
      ['Get-Content', true],
    ]);
  });

  it('never throws on unbalanced input', () => {
    for (const s of ['(', '{{', '"unterminated', "'x", '$(Read-Host', '@"\n', '`', '<#', '& ', '|||'])
      expect(() => checkHang(s, claude)).not.toThrow();
    expect(checkHang('$(Read-Host', claude)?.rule).toBe('prompt');
  });
});
