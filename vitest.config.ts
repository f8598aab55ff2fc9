import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['schemas/**/*.test.ts', 'pipeline/**/*.test.ts', 'api/**/*.test.ts', 'runtime/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // chDB binds one data directory per process; separate test files must not share a process.
    pool: 'forks',
  },
});
