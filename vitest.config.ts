import { defineConfig } from 'vitest/config';

// Unit and API tests: Node, real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set).
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/api/**/*.test.ts', 'test/rxdb/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
