// The scale benchmark's databases (bench/scale.bench.ts): one scratch PostgreSQL database per
// size, `icrs_scale_<size>`, with `size` clients in ONE organisation (location 1), each with two
// sub-records (skills, social) and the audit entries their creation wrote, built in SQL with
// generate_series (minutes for 1M, not the hours of the HTTP seed). Kept between runs: a
// database whose build mark says the same size and layout is used as it is (BENCH_REBUILD=1
// builds again).
//
// The load runs as the superuser with `session_replication_role = replica`: no row trigger (the
// audit and change triggers, the foreign-key checks) fires for the bulk insert, and the audit
// entries the triggers would have written are inserted directly. The loaded tables' indexes
// (all but keys and unique constraints) are dropped during the load and made again after it.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { configFromEnv } from '../../server/config';

/** The PostgreSQL server the scratch databases live on (as its superuser). */
export const SCALE_SERVER = process.env.BENCH_SCALE_SERVER ?? 'postgres://postgres@127.0.0.1:5432';
/** Bumped when the built rows change, so that an older build is made again. */
const LAYOUT = 'scale-v1';

export const scaleDatabaseUrl = (size: number): string => `${SCALE_SERVER}/icrs_scale_${size}`;

/** The configuration of a server on the database of `size` clients (its migration, the bench's
 * servers): the first administrator admin / admin-password-1, no log. */
export const scaleServerConfig = (size: number) => ({
  ...configFromEnv({}),
  databaseUrl: scaleDatabaseUrl(size),
  jwtSecret: 'scale-bench-secret-at-least-32-bytes-long',
  adminUserName: 'admin',
  adminPassword: 'admin-password-1',
  logLevel: 'silent',
});

/** Row n's key of a kind (the tables' keys are UUIDs). */
const key = (suffix: string) => `lpad(to_hex(n), 8, '0') || '-0000-7000-8000-${suffix}'`;
const CLIENT_SUFFIX = '00000000c11e';
const USER_ID = '00000000-0000-7000-8000-0000000b3c11';
/** The tables the build loads. */
const LOADED = ['tbl_profiles', 'tbl_skills', 'tbl_profiles_social', 'audit_log', 'users'];

/** The client of row `n`'s key and registration number, as the build stores them. */
export function scaleClient(n: number): { prof_Id: string; prof_Reg_No: string } {
  return { prof_Id: `${n.toString(16).padStart(8, '0')}-0000-7000-8000-${CLIENT_SUFFIX}`, prof_Reg_No: registrationNumber(n) };
}

function registrationNumber(n: number): string {
  // As the SQL below: 'ORG', six hex digits of n, four of md5(n).
  return `ORG${n.toString(16).padStart(6, '0')}`.toUpperCase() + md5(String(n)).slice(0, 4).toUpperCase();
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** Surnames shared by many clients (1 in 40 each), and the rare one 20 clients carry at every
 * size (a search for one person: what a name search mostly is). */
export const COMMON_SURNAME = 'Mbuyi';
export const RARE_SURNAME = 'Tshibangu-Kalonji';
const SURNAMES = ['Mbuyi', 'Kabila', 'Tshisekedi', 'Lukaku', 'Kasongo', 'Ilunga', 'Mukendi', 'Kalala', 'Ngoy', 'Mutombo'];
const FIRST_NAMES = ['Furaha', 'Amani', 'Neema', 'Baraka', 'Esther', 'Jean', 'Marie', 'Patrick', 'Grâce', 'Josué', 'Aimée', 'Héritier'];

const sqlArray = (items: readonly string[]) => `ARRAY[${items.map((s) => `'${s.replaceAll("'", "''")}'`).join(', ')}]`;

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function builtMark(size: number): Promise<string | undefined> {
  try {
    return await withClient(scaleDatabaseUrl(size), async (client) => {
      const { rows } = await client.query<{ value: string }>(`SELECT "value" FROM "settings" WHERE "key" = 'benchScale'`);
      return rows[0]?.value;
    });
  } catch {
    return undefined;
  }
}

/**
 * The tables, indexes and triggers as the server makes them (its migrations, the newer ones on a
 * database built before) and its first administrator; answers the seconds taken. Without the
 * server's statement timeout (15 s): a migration on a million rows takes longer (an upgrade of a
 * large database needs DB_STATEMENT_TIMEOUT_MS raised for `npm run migrate`, ADR-0014 "Time limits, all settings with defaults").
 */
async function migrateScaleDatabase(size: number): Promise<number> {
  const started = performance.now();
  const server = await buildApp({ ...scaleServerConfig(size), statementTimeoutMs: 3_600_000 });
  await server.app.close();
  return (performance.now() - started) / 1000;
}

/** The database of `size` clients, built unless it is there already; answers the seconds taken
 * (0 when it was there). */
export async function ensureScaleDatabase(size: number, log: (line: string) => void = console.log): Promise<number> {
  const mark = `${LAYOUT}:${size}`;
  if (process.env.BENCH_REBUILD !== '1' && (await builtMark(size)) === mark) {
    const upgraded = await migrateScaleDatabase(size);
    if (upgraded > 1) log(`  ${size}: migrations applied in ${upgraded.toFixed(0)} s`);
    return 0;
  }
  const started = performance.now();
  const name = `icrs_scale_${size}`;
  await withClient(`${SCALE_SERVER}/postgres`, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  await migrateScaleDatabase(size);
  await withClient(scaleDatabaseUrl(size), async (client) => {
    await client.query('SET statement_timeout = 0');
    await client.query("SET maintenance_work_mem = '256MB'");
    await client.query('SET synchronous_commit = off');
    // Every index of the loaded tables but their keys and unique constraints, as the server made
    // them: dropped for the load, made again after it.
    const { rows: indexes } = await client.query<{ name: string; sql: string }>(
      `SELECT i.indexname AS name, i.indexdef AS sql FROM pg_indexes i
       WHERE i.schemaname = 'public' AND i.tablename = ANY($1::text[])
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = (quote_ident(i.indexname))::regclass)`,
      [LOADED],
    );
    for (const index of indexes) await client.query(`DROP INDEX "${index.name}"`);
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    await fill(client, size, log);
    await client.query('COMMIT');
    log(`  ${size}: rows in ${((performance.now() - started) / 1000).toFixed(0)} s; indexes…`);
    for (const index of indexes) await client.query(index.sql);
    for (const table of LOADED) await client.query(`VACUUM ANALYZE "${table}"`);
    await client.query(
      `INSERT INTO "settings" ("key", "value") VALUES ('benchScale', $1)
      ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value"`,
      [mark],
    );
  });
  const seconds = (performance.now() - started) / 1000;
  log(`  ${size}: built in ${seconds.toFixed(0)} s`);
  return seconds;
}

/** The columns `table` has, to fill a column a later migration adds (a sub-record's organisation). */
async function hasColumn(client: pg.Client, table: string, column: string): Promise<boolean> {
  const { rows } = await client.query('SELECT 1 FROM information_schema.columns WHERE table_name = $1 AND column_name = $2', [
    table,
    column,
  ]);
  return rows.length > 0;
}

async function fill(client: pg.Client, size: number, log: (line: string) => void): Promise<void> {
  const rareEvery = Math.max(1, Math.floor(size / 20));
  // A user of the organisation made the records (the audit entries name it).
  await client.query(
    `INSERT INTO "users" ("userId", "userName", "passwordHash", "role", "location", "fullName", "active", "createdAt", "updatedAt")
     VALUES ($1, 'scale-field', 'x', 4, 1, 'Field worker', true, now(), now()) ON CONFLICT DO NOTHING`,
    [USER_ID],
  );
  // Created over two years, newest first in n; every tenth without birth date or phone.
  const created = `now() - n * (interval '2 years' / ${size})`;
  await client.query(
    `INSERT INTO "tbl_profiles" ("prof_Id", "prof_Reg_No", "firstName", "lastName", "sex", "birthDate", "phone", "territory",
       "consent", "location", "createdAt", "updatedAt", "createdBy", "updatedBy")
     SELECT ${key(CLIENT_SUFFIX)}, upper('ORG' || lpad(to_hex(n), 6, '0') || substr(md5(n::text), 1, 4)),
       (${sqlArray(FIRST_NAMES)})[1 + n % ${FIRST_NAMES.length}],
       CASE WHEN n % ${rareEvery} = 0 THEN '${RARE_SURNAME}' ELSE (${sqlArray(SURNAMES)})[1 + (n / 7) % ${SURNAMES.length}] || ' ' || substr(md5('s' || n), 1, 3) END,
       CASE WHEN n % 2 = 0 THEN 'F' ELSE 'M' END,
       CASE WHEN n % 10 = 0 THEN NULL ELSE date '1960-01-01' + ((n::bigint * 7919) % 16000)::int END,
       CASE WHEN n % 10 = 5 THEN NULL ELSE '+243 8' || lpad(((n::bigint * 104729) % 100000000)::text, 8, '0') END,
       1 + n % 8, true, 1, ${created}, ${created}, $1, $1
     FROM generate_series(1, $2::int) AS n`,
    [USER_ID, size],
  );
  log(`  ${size}: clients`);
  for (const table of ['tbl_skills', 'tbl_profiles_social']) {
    const organisation = (await hasColumn(client, table, 'organisation')) ? ', "organisation"' : '';
    const specific = table === 'tbl_skills' ? ', "educationLevel"' : ', "dependants"';
    await client.query(
      `INSERT INTO "${table}" ("prof_Id"${specific}, "createdAt", "updatedAt", "createdBy", "updatedBy"${organisation})
       SELECT ${key(CLIENT_SUFFIX)}, 1 + n % 5, ${created}, ${created}, $1, $1${organisation ? ', 1' : ''}
       FROM generate_series(1, $2::int) AS n`,
      [USER_ID, size],
    );
  }
  log(`  ${size}: sub-records`);
  // What the audit triggers would have written: one entry per row made, in the order made.
  await client.query(
    `INSERT INTO "audit_log" ("at", "userId", "userName", "role", "userLocation", "location", "action", "entity", "recordId", "clientId", "fields")
     SELECT ${created.replaceAll('n *', 'c.n *')}, $1, 'scale-field', 4, 1, 1, 'create', t.entity, ${key(CLIENT_SUFFIX).replaceAll('(n)', '(c.n)')},
       ${key(CLIENT_SUFFIX).replaceAll('(n)', '(c.n)')}, '[]'::jsonb
     FROM generate_series($2::int, 1, -1) AS c(n) CROSS JOIN (VALUES ('profile'), ('skills'), ('social')) AS t(entity)`,
    [USER_ID, size],
  );
  log(`  ${size}: audit entries`);
}
