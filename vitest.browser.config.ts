import { defineConfig } from 'vitest/config';
import pkg from './package.json' with { type: 'json' };

// Browser tests: drive the built app (dist/) in headless Chromium through playwright-core.
export default defineConfig({
  // The tests read some of the app's modules (paths, help screenshots) whose layer's index also
  // carries the build's version, as the unit tests' config does.
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/browser/**/*.test.ts'],
    environment: 'node',
    // Test servers on PGlite start from one database migrated once (test/helpers/pgliteImage.ts).
    globalSetup: ['test/helpers/globalSetup.ts'],
    // A failed test prints what its pages showed (test/helpers/failure-report.ts).
    setupFiles: ['test/helpers/browser-setup.ts'],
    // A test's own bound: the same tests take twice as long on the slower of the 2-core machines
    // CI runs on (docs/adr/0040-tests-and-ci.md "The suite's time"), and the screens' tests that
    // take 17-25 s on one took 42-60 s on the other. Each wait inside a test has its own bound.
    testTimeout: 120_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Two files at a time: each has its own server, database and browser (test/helpers), so they
    // share nothing; on CI's 2 cores the browser files take about half as long as one by one.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
