// Which databases the API tests run on: always PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set (each test file then gets a database of its own, dropped after).
import pg from 'pg';

export type Backend = 'pglite' | 'postgres';

export const backends: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface ScratchDatabase {
  /** The app's connection (DATABASE_URL). */
  url: string;
  /** With two roles: the owner's connection (DATABASE_OWNER_URL). */
  ownerUrl?: string;
  drop(): Promise<void>;
}

/** How the API tests' PostgreSQL databases are made: 'one' role (the TEST_DATABASE_URL user,
 * the default), or 'two' (an owner and an app role, neither a superuser: README "Running
 * against PostgreSQL"). TEST_DATABASE_ROLES=two runs every test file so. */
export type Roles = 'one' | 'two';
export const defaultRoles: Roles = process.env.TEST_DATABASE_ROLES === 'two' ? 'two' : 'one';

/** A fresh, empty PostgreSQL database on the TEST_DATABASE_URL server; with `roles: 'two'`,
 * owned by a role of its own and used by another, both made for it and dropped with it (roles
 * are the cluster's, so their names are unique to the database). */
export async function createScratchDatabase({ roles = 'one' }: { roles?: Roles } = {}): Promise<ScratchDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `icrs_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const owner = `${name}_owner`;
  const app = `${name}_app`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  if (roles === 'two') {
    // Trust authentication on the test server: the password is there as in production.
    await admin.query(`CREATE ROLE "${owner}" LOGIN PASSWORD 'owner-password' NOSUPERUSER NOCREATEDB NOCREATEROLE`);
    await admin.query(`CREATE ROLE "${app}" LOGIN PASSWORD 'app-password' NOSUPERUSER NOCREATEDB NOCREATEROLE`);
    await admin.query(`CREATE DATABASE "${name}" OWNER "${owner}"`);
  } else {
    await admin.query(`CREATE DATABASE "${name}"`);
  }
  await admin.end();
  const as = (user?: string, password?: string) => {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    if (user) {
      url.username = user;
      url.password = password ?? '';
    }
    return url.toString();
  };
  return {
    url: roles === 'two' ? as(app, 'app-password') : as(),
    ownerUrl: roles === 'two' ? as(owner, 'owner-password') : undefined,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        if (roles === 'two') for (const role of [app, owner]) await client.query(`DROP ROLE IF EXISTS "${role}"`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Runs one statement on `url` with a connection of its own. */
export async function queryAs<T extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
