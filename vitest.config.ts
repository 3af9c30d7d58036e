import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Generous: tests wait on conditions, and a busy two-core machine runs child processes and PDF builds slowly.
    testTimeout: 60_000,
    // Most files wait on sockets, Postgres and Slack's pacing rather than compute: four at a time on two
    // cores takes the suite from 13 to 5 minutes (docs/development.md); Vitest's default (cores - 1) is one.
    maxWorkers: Math.max(4, availableParallelism() - 1),
    hookTimeout: 60_000,
  },
});
