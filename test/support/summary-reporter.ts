import type { Reporter, TestModule } from 'vitest/node';
import { BROWSER_TEST_PREFIX, browserAvailable, HOW_TO_RUN_BROWSER_TESTS } from './browser.js';

/**
 * Prints one closing line `tests: N passed, N failed, N skipped` that CI can read in any language;
 * a file that failed without a failed test (load error, failed hook) counts as one failure.
 */
export class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    let browserTestsSkipped = 0;
    for (const testModule of testModules) {
      let failedHere = 0;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failedHere += 1;
        else {
          skipped += 1;
          if (test.fullName.startsWith(BROWSER_TEST_PREFIX)) browserTestsSkipped += 1;
        }
      }
      // A file that failed to load, or whose beforeAll/afterAll failed (its tests then read as
      // skipped), has no failed test but must still count as a failure.
      failed += testModule.state() === 'failed' && failedHere === 0 ? 1 : failedHere;
    }
    const availability = browserAvailable();
    if (browserTestsSkipped > 0 && !availability.ok) {
      const line = '!'.repeat(78);
      process.stdout.write(
        `\n${line}\nBROWSER TESTS DID NOT RUN: ${browserTestsSkipped} skipped (${availability.reason}).\nTo run them: ${HOW_TO_RUN_BROWSER_TESTS}.\n${line}\n`,
      );
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
