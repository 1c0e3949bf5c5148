// Which databases the API tests run on: always PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set (each test file then gets a database of its own, dropped after).
import pg from 'pg';

export type Backend = 'pglite' | 'postgres';

export const backends: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty PostgreSQL database on the TEST_DATABASE_URL server. */
export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `icrs_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}
