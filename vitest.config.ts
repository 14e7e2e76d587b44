import { defineConfig } from 'vitest/config';

// The default suite: unit, contract, snapshot and corpus tests. Real agents run in vitest.agents.config.ts.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/agents/**', 'node_modules/**'],
    setupFiles: ['test/helpers/isolated-state.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
