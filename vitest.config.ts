import { defineConfig } from 'vitest/config';
import pkg from './package.json' with { type: 'json' };

// Unit and API tests: Node, real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set).
export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/unit/**/*.test.ts', 'test/api/**/*.test.ts', 'test/rxdb/**/*.test.ts'],
    environment: 'node',
    // Test servers on PGlite start from one database migrated once (test/helpers/pgliteImage.ts).
    globalSetup: ['test/helpers/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on CI's 2 cores (Vitest's default there is one): the API files wait
    // much of their time on PostgreSQL, spawned server processes and timers, and each has its own
    // database (test/helpers/db.ts), server and ports, so they share nothing.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
