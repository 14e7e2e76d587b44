import { defineConfig } from 'vitest/config';

// The real-agent acceptance suite (test/agents): slow, sequential, needs `node scripts/install-agents.mjs`.
export default defineConfig({
  test: {
    include: ['test/agents/**/*.test.ts'],
    // One file at a time, one fork: the agents already use both CI cores, and the mock server is per file.
    fileParallelism: false,
    pool: 'forks',
    maxWorkers: 1,
    // A scenario can hold two agent runs of up to 180 s each plus the scaffold step.
    testTimeout: 600_000,
    hookTimeout: 300_000,
    reporters: ['verbose'],
  },
});
