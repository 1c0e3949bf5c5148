// Large tables for the benchmarks, filled in bulk (one INSERT … SELECT generate_series per
// table, seconds for 100,000 rows): providers, services, jobs, clients and referrals, `rows`
// each, with the spread of the demo data (8 territories, 5 organisations, 92 % of providers
// and jobs with coordinates). Row n of each table has a fixed key (`benchKey`).
import { serviceProvider } from '../schemas';
import type { Db, Queryable } from '../server/db/index';
import { ensureOrganisations } from '../test/helpers/records';
import type { TestServer } from '../test/helpers/server';
import type { Load } from './load';

export const MAIN_TABLES = ['tbl_serviceprovider', 'tbl_sp_detail', 'available-jobs', 'tbl_profiles', 'referral'] as const;

/** The key suffix of each table's rows (the tables' keys must be UUIDs). */
const SUFFIX = { provider: '000000000001', service: '000000000002', job: '000000000003', client: '000000000004', referral: '000000000005' };
type Kind = keyof typeof SUFFIX;

/** SQL for the UUID of row `n` of a kind. */
const key = (kind: Kind) => `lpad(to_hex(n), 8, '0') || '-0000-7000-8000-${SUFFIX[kind]}'`;

/** The key of row `n` (1-based) of a kind, as `fillMainTables` stores it. */
export function benchKey(kind: Kind, n: number): string {
  return `${n.toString(16).padStart(8, '0')}-0000-7000-8000-${SUFFIX[kind]}`;
}

/** Fills the five main tables with `rows` rows each and analyses them; answers the seconds taken. */
export async function fillMainTables(db: Db, rows: number): Promise<number> {
  const started = performance.now();
  // One transaction without the server's statement timeout: on a busy machine one table's
  // INSERT (with its foreign-key checks) can take longer than a request may.
  await db.transaction(async (tx) => {
    await tx.query('SET LOCAL statement_timeout = 0');
    await insertRows(tx, rows);
  });
  // As autovacuum leaves a table soon after a bulk load: statistics and the visibility map
  // (index-only scans) up to date.
  for (const table of MAIN_TABLES) await db.query(`VACUUM ANALYZE "${table}"`);
  return (performance.now() - started) / 1000;
}

async function insertRows(db: Queryable, rows: number): Promise<void> {
  await db.query(
    `INSERT INTO "tbl_serviceprovider" ("sp_Id", "sp_Name", "sp_type", "sp_Address", "territory", "lat", "lng", "location", "createdAt", "updatedAt")
     SELECT ${key('provider')}, 'Provider ' || n, 1 + n % 4, CASE WHEN n % 16 = 0 THEN NULL ELSE 'Avenue ' || n END, 1 + n % 8,
       CASE WHEN n % 12 = 0 THEN NULL ELSE -1.7 + (n % 997) / 500.0 END, CASE WHEN n % 12 = 0 THEN NULL ELSE 28.5 + (n % 991) / 700.0 END,
       1 + n % 5, now() - (n % 700) * interval '1 day', now()
     FROM generate_series(1, $1::int) AS n`,
    [rows],
  );
  await db.query(
    `INSERT INTO "tbl_sp_detail" ("sp_Detail_Id", "sp_Id", "name", "category", "serviceType", "territory", "status", "createdAt", "updatedAt")
     SELECT ${key('service')}, ${key('provider')}, 'Service ' || n, 1 + n % 8, 1 + n % 16, 1 + n % 8, n % 3, now() - (n % 700) * interval '1 day', now()
     FROM generate_series(1, $1::int) AS n`,
    [rows],
  );
  await db.query(
    `INSERT INTO "available-jobs" ("jb_Id", "title", "employer", "sector", "territory", "address", "open", "positions", "lat", "lng", "location", "createdAt", "updatedAt")
     SELECT ${key('job')}, 'Job ' || n, 'Employer ' || n % 500, 1 + n % 11, 1 + n % 8, 'Rue ' || n, n % 4 <> 0, 1 + n % 5,
       CASE WHEN n % 12 = 0 THEN NULL ELSE -1.7 + (n % 983) / 500.0 END, CASE WHEN n % 12 = 0 THEN NULL ELSE 28.5 + (n % 977) / 700.0 END,
       1 + n % 5, now() - (n % 700) * interval '1 day', now()
     FROM generate_series(1, $1::int) AS n`,
    [rows],
  );
  await db.query(
    `INSERT INTO "tbl_profiles" ("prof_Id", "prof_Reg_No", "firstName", "lastName", "sex", "territory", "consent", "location", "createdAt", "updatedAt")
     SELECT ${key('client')}, 'BEN' || lpad(n::text, 8, '0'), 'Furaha', 'Kahindo', CASE WHEN n % 2 = 0 THEN 'F' ELSE 'M' END, 1 + n % 8, true,
       1 + n % 5, now() - (n % 700) * interval '1 day', now()
     FROM generate_series(1, $1::int) AS n`,
    [rows],
  );
  await db.query(
    `INSERT INTO "referral" ("ref_Id", "prof_Id", "sp_Detail_Id", "date", "reason", "status", "createdAt", "updatedAt")
     SELECT ${key('referral')}, ${key('client')}, ${key('service')}, (now() - (n % 700) * interval '1 day')::date, 'Reason',
       (ARRAY['sent', 'accepted', 'completed', 'declined'])[1 + n % 4], now(), now()
     FROM generate_series(1, $1::int) AS n`,
    [rows],
  );
}

/** The office user (role 4, organisation 1) the API benches sign in. */
export const OFFICE = { userName: 'office', password: 'office-password-1', role: 4, location: 1 };

/** The organisations, `rows` rows in each main table and the office user signed in: the server
 * the API benches load. `providerGets` reads 1,000 single providers spread over the table. */
export async function officeOnFilledServer(t: TestServer, rows: number) {
  await ensureOrganisations(t.server.db);
  const filled = await fillMainTables(t.server.db, rows);
  const { userId } = await t.createUser(OFFICE);
  const token = await t.login(OFFICE.userName, OFFICE.password);
  const providerGets: Load = {
    url: t.url,
    method: 'GET',
    headers: { authorization: `Bearer ${token}` },
    paths: Array.from({ length: 1000 }, (_, i) => `/api${serviceProvider.rest}/${benchKey('provider', 1 + ((i * 97) % rows))}`),
  };
  return { filled, userId, token, providerGets };
}
