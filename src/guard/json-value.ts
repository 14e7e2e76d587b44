// Reading parsed JSON of unknown shape (hook payloads, tool configs, transcripts): a value is an object or a string,
// or it is not there. The one copy, for the guard and for everything outside it.

export type Obj = Record<string, unknown>;

/** The value as a plain object (not an array, not null); undefined otherwise. */
export function obj(value: unknown): Obj | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : undefined;
}

/** The value when it is a string; undefined otherwise. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
