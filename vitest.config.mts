import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'scripts/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'bench/**/*.test.ts', 'e2e/realCli/**/*.test.ts'],
    // Real PTYs and SQLite files: forks keep native handles out of worker threads.
    globalSetup: ['test-support/buildOnce.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
