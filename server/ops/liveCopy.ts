// The embedded backup is a copy of the live rows, never the data folder as it stands
// (docs/security.md "Operations"): the folder keeps old row versions (an erased client's
// values among them) in its table pages until a vacuum, and in its write-ahead log longer.
// So a backup is a new database made in memory by the same migrations (the same schema), into
// which every table's live rows are copied, triggers off, sequences set to where they were; its
// folder is what goes into the tarball. The secret tables' rows stay behind (ops/secrets.ts).
import { PGlite } from '@electric-sql/pglite';
import { ident } from '../../schemas/derive/sql';
import { pgliteMigratable, pgliteRows } from '../db/index';
import { coreMigrations, knownMigrationIds, migrate } from '../db/migrations';
import { OperatorError } from './errors';
import { SECRET_TABLES } from './secrets';

/** The tables of the public schema, each with its stored columns in order. */
async function tablesOf(lite: PGlite): Promise<Map<string, string[]>> {
  const rows = await pgliteRows<{ table: string; columns: string[] }>(
    lite,
    `SELECT c.relname AS "table", array_agg(a.attname::text ORDER BY a.attnum) AS "columns"
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
      GROUP BY c.relname ORDER BY c.relname`,
  );
  return new Map(rows.map((row) => [row.table, row.columns]));
}

/** Each sequence of the public schema and where it stands. */
async function sequencesOf(lite: PGlite): Promise<{ name: string; last: string; called: boolean }[]> {
  const names = await pgliteRows<{ name: string }>(
    lite,
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'S'`,
  );
  const positions = [];
  for (const { name } of names) {
    const [row] = await pgliteRows<{ last: string; called: boolean }>(
      lite,
      `SELECT last_value::text AS last, is_called AS called FROM ${ident(name)}`,
    );
    if (row) positions.push({ name, ...row });
  }
  return positions;
}

/**
 * A gzipped tarball of a new database holding the live rows of `source` (an open PGlite whose
 * applied migrations are `migrations`), the secret tables empty. Refuses a database migrated by
 * a newer ICRS: its schema could not be made again here.
 */
export async function liveCopyTarball(source: PGlite, migrations: readonly string[], where: string): Promise<Blob> {
  const applied = new Set(migrations);
  const known = new Set(knownMigrationIds());
  const unknown = migrations.filter((id) => !known.has(id));
  if (unknown.length)
    throw new OperatorError(
      `${where} was migrated by a newer ICRS (${unknown.join(', ')}): back it up with the ICRS version its server runs`,
    );
  const copy = await PGlite.create(); // in memory: nothing of it touches the disk but the tarball
  try {
    // The source's migrations, in the code's order: the schema the source has.
    await migrate(
      pgliteMigratable(copy),
      coreMigrations.filter((m) => applied.has(m.id)),
    );
    const from = await tablesOf(source);
    const to = await tablesOf(copy);
    const differs = [...new Set([...from.keys(), ...to.keys()])].filter((table) => from.get(table)?.join(',') !== to.get(table)?.join(','));
    if (differs.length)
      throw new OperatorError(
        `${where} has tables its migrations do not make (${differs.slice(0, 4).join(', ')}): was it changed by hand? A backup copies only the schema ICRS makes`,
      );
    // Rows as they are, once: no audit entry, no change notice, no check of references (the
    // copy is whole only at the end).
    await copy.query('SET session_replication_role = replica');
    for (const [table, columns] of to) {
      await copy.query(`DELETE FROM ${ident(table)}`); // what the migrations wrote (schema_migrations)
      if (SECRET_TABLES.includes(table)) continue;
      const list = columns.map(ident).join(', ');
      const out = await source.query(`COPY ${ident(table)} (${list}) TO '/dev/blob' WITH (FORMAT binary)`);
      if (!out.blob) throw new Error(`COPY of ${table} gave no data`);
      await copy.query(`COPY ${ident(table)} (${list}) FROM '/dev/blob' WITH (FORMAT binary)`, [], { blob: out.blob });
    }
    for (const sequence of await sequencesOf(source)) {
      await copy.query('SELECT setval($1::regclass, $2::bigint, $3)', [ident(sequence.name), sequence.last, sequence.called]);
    }
    await copy.query('SET session_replication_role = origin');
    // Every change in the data files: the tarball opens without replaying the log.
    await copy.query('CHECKPOINT');
    return await copy.dumpDataDir('gzip');
  } finally {
    await copy.close();
  }
}
