import { defineConfig } from 'vitest/config';

// Browser tests: drive the built app (dist/) in headless Chromium through playwright-core.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
