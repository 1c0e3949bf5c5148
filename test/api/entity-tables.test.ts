// Tables of a new entity (docs/adr/0050-a-new-entity.md "Tables of a new entity"): a database
// made before an entity was declared gets its table at the next start, from the declaration and
// with no migration of its own, as a new database has it (its columns in their order, keys,
// indexes, triggers, and the functions they call); the start records it, once. The entities
// standing for new ones are those no other entity refers to, whose tables can go: users aside,
// which migrations of their own change.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ident } from '../../schemas/derive/sql';
import { serverEntities, user } from '../../schemas/index';
import type { Db, Queryable } from '../../server/db/index';
import { lateTableId, migrate, pendingMigrations } from '../../server/db/migrations';
import { refuseUnknownMigrations } from '../../server/ops/backupFile';
import { drillDatabase, type DrillDatabase } from '../helpers/backup';
import { backends } from '../helpers/db';

const referred = new Set(
  serverEntities.flatMap((entity) => [
    ...Object.values(entity.fields).flatMap((field) => (field.kind === 'id' && field.ref ? [field.ref] : [])),
    ...(entity.parent ? [entity.parent.entity] : []),
  ]),
);
const NEW_ONES = serverEntities.filter((entity) => !referred.has(entity.name) && entity !== user);

/** Every object of the public schema a migration makes, one line each, sorted: the tables with
 * their columns in order, the constraints, indexes, triggers and functions. */
async function catalog(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ item: string }>(
    `SELECT 'table ' || c.relname || ': ' || (
         SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
             || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), ''), ', ' ORDER BY a.attnum)
           FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
          WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS item
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
     UNION ALL
     SELECT 'constraint ' || con.conrelid::regclass::text || ' ' || con.conname || ' ' || pg_get_constraintdef(con.oid)
       FROM pg_constraint con JOIN pg_namespace n ON n.oid = con.connamespace WHERE n.nspname = 'public'
     UNION ALL
     SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
     UNION ALL
     SELECT 'trigger ' || pg_get_triggerdef(t.oid) || ' ' || t.tgenabled::text
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT t.tgisinternal
     UNION ALL
     SELECT 'function ' || p.proname || ' ' || md5(p.prosrc) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'`,
  );
  return rows.map((row) => row.item).sort();
}

const recorded = async (db: Queryable) =>
  (await db.query<{ id: string }>('SELECT "id" FROM "schema_migrations" ORDER BY "id"')).map((r) => r.id);

describe.each(backends)('tables of a new entity on %s', (backend) => {
  const work = mkdtempSync(path.join(tmpdir(), 'icrs-tables-'));
  let database: DrillDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await drillDatabase(backend, work, 'db');
    db = await database.open();
    await migrate(db);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await database?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it('stands for new entities with sub-records and records of their own', () => {
    expect(NEW_ONES.map((entity) => entity.name)).toEqual(expect.arrayContaining(['referral', 'skills', 'vocational', 'list']));
  });

  it('makes the tables a database lacks as a new database has them, at the next start, once', async () => {
    const made = await catalog(db);
    const ids = NEW_ONES.map(lateTableId);
    expect((await recorded(db)).filter((id) => ids.includes(id))).toEqual([]); // a new database made them all
    await db.transaction(async (tx) => {
      for (const entity of NEW_ONES) await tx.query(`DROP TABLE ${ident(entity.table)} CASCADE`);
    });
    // The database as one made before these entities: what the start is to do.
    expect(await pendingMigrations(db)).toEqual(ids);

    expect(await migrate(db)).toEqual(ids);
    expect(await catalog(db)).toEqual(made);
    expect(await pendingMigrations(db)).toEqual([]);
    expect(await migrate(db)).toEqual([]);
    // Recorded: an ICRS that does not declare them refuses a backup of this database.
    expect(await recorded(db)).toEqual(expect.arrayContaining(ids));
    expect(() => refuseUnknownMigrations(ids, 'backup.dump')).not.toThrow();
    expect(() => refuseUnknownMigrations(['0001-entities/no_such_table'], 'backup.dump')).toThrow(/newer than the code/);
  });
});
