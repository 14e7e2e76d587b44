// Exit codes (prettier/biome convention), in a module of their own so --help and --version load nothing else.
export const EXIT = { ok: 0, drift: 1, error: 2 } as const;
