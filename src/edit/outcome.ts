// What every pure editor returns: text in, text out, or a conflict that says what to do by hand; and the error
// an editor throws when the user's file cannot be parsed.

/** The outcome of one pure edit of one file's text. */
export type EditOutcome =
  | {
      status: 'changed' | 'unchanged';
      /** The whole new text (equal to the input when unchanged). */
      text: string;
      /** Things the user should know (e.g. a kept value of theirs), one sentence each. */
      notes: string[];
    }
  | {
      status: 'conflict';
      /** What is in the way, one sentence. */
      reason: string;
      /** Exactly what to do or paste by hand. */
      fix: string;
    };

/**
 * The user's file cannot be parsed: the CLI exits 2 and writes nothing.
 * Editors throw this; the plan layer adds the file path.
 */
export class FileFormatError extends Error {
  constructor(
    message: string,
    /** How to repair the file, one sentence. */
    public readonly fix: string,
  ) {
    super(message);
    this.name = 'FileFormatError';
  }
}
