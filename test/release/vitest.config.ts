import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The release check (`.ci/run`, after `npm run release`): installs the release files outside the
 * checkout, so it needs the registry and minutes; `npm test` leaves it out.
 */
export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  test: {
    include: ['test/release/**/*.release.ts'],
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 60 * 60_000,
  },
});
