// A line of plain words: no quote, expansion, operator, redirection, comment, group or second line. Most command
// lines are (`git status`, `sed -n 1,80p src/a.ts`), and such a line is one command of its blank-separated words, so
// the hang rules' splitter and the command key read it without their walks one character at a time.

export const PLAIN_LINE = /^[^\n\r\\'"$`#;&|<>(){}]*$/;
/** The blanks the shell splits words on (a non-ASCII space is part of its word). */
export const BLANKS = /[ \t]+/;
