// One ordered list of migrations for both databases, applied at start inside one
// transaction under an advisory lock, so several server processes may start together.
import type { Db, Queryable } from './index';

export interface Migration {
  id: string;
  up: (tx: Queryable) => Promise<void>;
}

const sql = (text: string) => async (tx: Queryable) => {
  for (const statement of text.split(/;\s*\n/).map((s) => s.trim()).filter(Boolean)) await tx.query(statement);
};

export const coreMigrations: Migration[] = [
  {
    id: '0001-users',
    up: sql(`
      CREATE TABLE IF NOT EXISTS "settings" (
        "key" text PRIMARY KEY,
        "value" text NOT NULL
      );
      CREATE TABLE IF NOT EXISTS "users" (
        "userId" text PRIMARY KEY,
        "userName" text NOT NULL,
        "passwordHash" text NOT NULL,
        "role" integer NOT NULL CHECK ("role" BETWEEN 1 AND 7),
        "location" integer NOT NULL DEFAULT 0,
        "fullName" text NOT NULL DEFAULT '',
        "email" text NOT NULL DEFAULT '',
        "phone" text NOT NULL DEFAULT '',
        "active" boolean NOT NULL DEFAULT true,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        "createdBy" text,
        "updatedBy" text
      );
      CREATE UNIQUE INDEX IF NOT EXISTS "users_userName_lower" ON "users" (lower("userName"));
    `),
  },
];

const MIGRATION_LOCK = 4242_0001;

export async function migrate(db: Db, migrations: Migration[] = coreMigrations): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS "schema_migrations" (
      "id" text PRIMARY KEY, "appliedAt" timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await tx.query<{ id: string }>('SELECT "id" FROM "schema_migrations"')).map((r) => r.id));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      await migration.up(tx);
      await tx.query('INSERT INTO "schema_migrations" ("id") VALUES ($1)', [migration.id]);
      applied.push(migration.id);
    }
    return applied;
  });
}
