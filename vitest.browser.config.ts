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
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Two files at a time: each has its own server, database and browser (test/helpers), so they
    // share nothing; on CI's 2 cores the browser files take about half as long as one by one.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
