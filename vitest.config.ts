import { defineConfig } from 'vitest/config';
import { SummaryReporter } from './test/support/summary-reporter.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Makes no server: the first test file that needs PostgreSQL starts one for the run (test/support/postgres.ts).
    globalSetup: ['test/support/postgres-global-setup.ts'],
    reporters: ['default', new SummaryReporter()],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
