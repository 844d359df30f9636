import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'scripts/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'bench/**/*.test.ts', 'e2e/realCli/**/*.test.ts'],
    // Real PTYs and SQLite files: forks keep native handles out of worker threads.
    globalSetup: ['test-support/buildOnce.ts'],
    pool: 'forks',
    // Most files wait on real processes (PTYs, git, hosts) more than they compute: a file per core,
    // not vitest's default of one fewer, which on a 2-core machine runs them one at a time.
    maxWorkers: Math.max(2, os.availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
