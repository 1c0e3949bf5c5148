import { defineConfig } from 'vitest/config';
import pkg from './package.json' with { type: 'json' };

// Unit and API tests: Node, real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set).
export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/unit/**/*.test.ts', 'test/api/**/*.test.ts', 'test/rxdb/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
