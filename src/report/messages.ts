// The CLI's messages as data: people read `text`, scripts read `code` (--json), and every non-zero exit has one.
export type Level = 'info' | 'warn' | 'error';

export interface Message {
  level: Level;
  /** Stable, machine-readable: e.g. "drift", "outdated", "not-set-up", "usage", "parse-error". */
  code: string;
  /** One sentence or a short paragraph, without colour or leading blank lines. */
  text: string;
}
