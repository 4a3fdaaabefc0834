import { configDefaults, defineConfig } from 'vitest/config';
import { SummaryReporter } from './test/support/summary-reporter.js';

/** The soak holds both hosts busy for minutes: it runs alone, after every other file, as a soak should. */
const SOAK = 'test/e2e/soak.e2e.test.ts';

export default defineConfig({
  test: {
    // Makes no server: the first test file that needs PostgreSQL starts one for the run (test/support/postgres.ts).
    globalSetup: ['test/support/postgres-global-setup.ts'],
    reporters: ['default', new SummaryReporter()],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    // Every store call is checked for a transaction's misuse (off in a running service: see TransactionScope).
    env: { BAILIFF_CHECK_TRANSACTIONS: '1' },
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'bailiff',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, SOAK],
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'soak', include: [SOAK], sequence: { groupOrder: 1 } } },
    ],
  },
});
