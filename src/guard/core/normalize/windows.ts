// Normalization rules for results that come from Windows: PowerShell's error records, the progress records it writes
// as CLIXML when its output is redirected, and the date and time-span forms its cmdlets print. (CRLF line endings and
// Windows temp paths are rules of lines.ts and ids.ts: they are not PowerShell's.)
import type { TokenRule } from './rule.ts';

const MONTH_NAMES = 'January|February|March|April|May|June|July|August|September|October|November|December';
const DAY_NAMES = 'Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday';

/** Built on first use with the other token rules; they run after them, in this order. */
export function windowsRules(): TokenRule[] {
  return [
    {
      name: 'clixml-progress',
      description:
        'Progress records PowerShell writes to a redirected stderr as CLIXML (<Obj S="progress" …>…</Obj>, ' +
        '"Preparing modules for first use."): shown on some runs only. Its error records (<S S="Error">) stay.',
      example: {
        before:
          '#< CLIXML\n<Objs Version="1.1.0.1"><Obj S="progress" RefId="0"><TN RefId="0"><T>System.Management.' +
          'Automation.PSCustomObject</T></TN><MS><I64 N="SourceId">1</I64><PR N="Record"><AV>Preparing modules ' +
          'for first use.</AV><AI>0</AI><Nil /><PI>-1</PI><PC>-1</PC><T>Completed</T><SR>-1</SR><SD> </SD></PR>' +
          '</MS></Obj><S S="Error">npm ERR! missing script: lint_x000D__x000A_</S></Objs>',
        after: '#< CLIXML\n<Objs Version="1.1.0.1"><S S="Error">npm ERR! missing script: lint_x000D__x000A_</S></Objs>',
      },
      re: /<Obj S="progress" RefId="\d+">[\s\S]*?<\/Obj>/g,
      to: '',
      needles: ['S="progress"'],
    },
    {
      name: 'powershell-error-position',
      description:
        'Where a PowerShell error record points into the command line it ran (Windows PowerShell\'s "At line:1 ' +
        'char:7", localized too, with the "+ <the line>" and "+ ~~~" lines; PowerShell 7\'s "Line |" block): a ' +
        'rewording of the command moves them. The error message, CategoryInfo and FullyQualifiedErrorId stay, ' +
        'and so does a position in a script file ("At C:\\repo\\build.ps1:12 char:5").',
      example: {
        before:
          "npm : The term 'npm' is not recognized as the name of a cmdlet.\nAt line:1 char:17\n+ cd app; npm " +
          'test 2>&1 | Select-Object -Last 20\n+                 ~~~\n    + CategoryInfo          : ObjectNotFound: ' +
          '(npm:String) [], CommandNotFoundException\n    + FullyQualifiedErrorId : CommandNotFoundException\n' +
          'ParserError:\nLine |\n   1 |  npm test |\n     |           ~\n     | An empty pipe element is not allowed.',
        after:
          "npm : The term 'npm' is not recognized as the name of a cmdlet.\n<position>\n    + CategoryInfo          : " +
          'ObjectNotFound: (npm:String) [], CommandNotFoundException\n    + FullyQualifiedErrorId : ' +
          'CommandNotFoundException\nParserError:\nLine |\n     | An empty pipe element is not allowed.',
      },
      // A position line (no path: no \ / or .), up to three "+ " lines of the command, and the "+ ~~~" under it.
      re: /^[^\n\\/.+]{0,40}?\d+[^\n\d\\/.]{1,24}\d+[ \t]*\n(?:\+[ \t][^\n]*\n){1,3}?\+[ \t]+~[~ \t]*$|^(Line \|)\n[ \t]*\d+ \|[^\n]*\n[ \t]*\|[ \t]*~[~ \t]*$/gm,
      to: (match) => (match.startsWith('Line |') ? 'Line |' : '<position>'),
      needles: ['~'],
    },
    {
      name: 'powershell-long-date',
      description:
        'The long dates Get-Date and Windows logs print ("Tuesday, December 1, 2026", "1 December 2026") and a ' +
        'day.month.year date before a clock time ("01.12.2026 20:21:28"); kept on a line that says what failed. ' +
        'They run after the other date and time rules, whose results they read.',
      example: {
        before: 'Tuesday, December 1, 2026 8:21:28 PM\nStarted 01.12.2026 20:21:28',
        after: '<date> <time>\nStarted <date> <time>',
      },
      re: new RegExp(
        `\\b(?:(?:${DAY_NAMES}), (?:${MONTH_NAMES}) \\d{1,2}, \\d{4}|\\d{1,2} (?:${MONTH_NAMES}) \\d{4}|` +
          '\\d{1,2}\\.\\d{1,2}\\.\\d{4}(?= (?:\\d{1,2}:\\d{2}|<time>)))\\b',
        'g',
      ),
      to: '<date>',
      needles: ['day, ', 'uary ', 'ch ', 'il ', 'May ', 'une ', 'uly ', 'ust ', 'ber ', '.20', '.19'],
      keepOnMeaningLines: true,
    },
    {
      name: 'timespan-fields',
      description:
        'The fields of a TimeSpan that Measure-Command prints (Days, Hours, …, Ticks, TotalMilliseconds): a ' +
        'new value each run. Only in an output that has a "TotalMilliseconds" or "TotalSeconds" field.',
      example: {
        before:
          'Seconds           : 1\nMilliseconds      : 234\nTicks             : 12345678\nTotalSeconds      : 1.2345678',
        after: 'Seconds           : <n>\nMilliseconds      : <n>\nTicks             : <n>\nTotalSeconds      : <n>',
      },
      re: /^((?:Total)?(?:Days|Hours|Minutes|Seconds|Milliseconds)|Ticks)([ \t]*:[ \t]*)[\d.,]+(?:E[+-]?\d+)?[ \t]*$/gm,
      to: '$1$2<n>',
      needles: ['TotalMilliseconds', 'TotalSeconds'],
    },
  ];
}
