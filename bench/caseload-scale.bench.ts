// The caseload feed's cost at scale (docs/performance.md "The caseload feed at 10k, 100k and
// 1M"): the same field worker's caseload (CASELOAD clients assigned, TERRITORY more in their
// territory) in an organisation of 10k, 100k and 1M clients, each client with its sub-records
// (bench/scale/firstPull.ts, built in SQL). What a worker's device and their administrator ask
// must cost by the caseload, not by the organisation (docs/performance.md "Measuring at scale":
// work per page that grows with the table is a defect). One PostgreSQL database per size,
// `icrs_bench_caseload_scale_<size>`, kept between runs (a build mark in `settings`;
// BENCH_REBUILD=1 builds again), each served by its own server process of this tree
// (bench/scale/served.ts). Measured interleaved: each round asks everything once of each size in
// turn, the order turning each round, so that the machine's noise falls on the sizes alike.
// Per round and size:
// - first_pull: a new device's pull of every client table from nothing, pages of 200 until a
//   short one (the total, and each page's time: page_p50);
// - incremental: one pull of each client table from its last checkpoint, nothing new;
// - reconcile_leave / reconcile_enter: the pull of the clients' table (one page from the last
//   checkpoint) just after 100 of the worker's clients were reassigned to a colleague / back:
//   the reconciliation it runs first, and the page of departures or entries;
// - assign_500: POST /api/profile/assign of 500 clients to the worker (then back, not counted);
// - pin / unpin: PUT and DELETE /api/caseload/pins/:id;
// - figures: GET /api/caseload (the worker's size figures);
// - preview: POST /api/caseload/preview of 500 clients for the worker (the administrator's).
// Prints each one's p50 per size and the largest ÷ smallest ratio; BENCH_EXPLAIN=1 the plans of
// the feed's, the reconciliation's and the figures' queries at the largest size.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_RUNS=5 npx tsx bench/caseload-scale.bench.ts
//
// BENCH_SCALE_SIZES=10000,100000,1000000 the sizes; BENCH_RUNS=5 rounds; BENCH_BUILD_ONLY=1
// builds the databases and stops.
import pg from 'pg';
import { getEntityByTable } from '../schemas/index';
import { ensureOrganisations } from '../test/helpers/records';
import type { Db } from '../server/db/index';
import { caseloadFigures, reconcileCaseload } from '../server/lib/records/caseload';
import { pullChanges } from '../server/plugins/sync/feed';
import type { PublicUser } from '../server/plugins/users/store';
import { median } from './median';
import { buildNationalData, CLIENT_TABLES, PULL_PAGE, type NationalData } from './scale/firstPull';
import { ADMIN_PASSWORD, api, databaseUrl, freshDatabase, login, spawnServer } from './scale/served';
import { loadText, withResults } from './results';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const SIZES = (process.env.BENCH_SCALE_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ORGANISATION = 2;
/** Clients 1..CASELOAD are assigned to the worker; the next TERRITORY are in their territory. */
const CASELOAD = 2000;
const TERRITORY = 300;
/** The worker's territory: no other client is in it (the build gives the others 1..8). */
const WORKER_TERRITORY = 9;
/** Clients of the organisation outside the caseload that an assignment or a pin moves. */
const ASSIGNED_FROM = 5001;
const PINNED = 6001;
const REASSIGNED = 100;
const ASSIGNED = 500;
/** Bumped when what the build makes changes, so that an older build is made again. */
const LAYOUT = 'caseload-scale-v1';
const WORKER = { userName: 'caseload-worker', password: 'caseload-worker-password-1' };
const COLLEAGUE = { userName: 'caseload-colleague', password: 'caseload-colleague-password-1' };

if (!ADMIN_URL) throw new Error('set TEST_DATABASE_URL (a PostgreSQL server where the user may create databases)');

/** Client number n's key (bench/scale/firstPull.ts). */
const clientKey = (n: number) => `01900000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const clientKeys = (from: number, count: number) => Array.from({ length: count }, (_, i) => clientKey(from + i));
const keysSql = (from: number, count: number) =>
  `ARRAY(SELECT '01900000-0000-7000-8000-' || lpad(i::text, 12, '0') FROM generate_series(${from}, ${from + count - 1}) i)`;

interface SizeServer {
  size: number;
  dbUrl: string;
  url: string;
  kill(): void;
  admin: string;
  worker: string;
  workerId: string;
  colleagueId: string;
}

async function withDb<T>(url: string, work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

async function builtMark(dbUrl: string): Promise<string | undefined> {
  try {
    return await withDb(dbUrl, async (db) => {
      const { rows } = await db.query<{ value: string }>(`SELECT "value" FROM "settings" WHERE "key" = 'benchCaseloadScale'`);
      return rows[0]?.value;
    });
  } catch {
    return undefined;
  }
}

const userIdOf = async (dbUrl: string, userName: string): Promise<string> =>
  withDb(dbUrl, async (db) => {
    const { rows } = await db.query<{ userId: string }>(`SELECT "userId" FROM "users" WHERE "userName" = $1`, [userName]);
    if (!rows[0]) throw new Error(`${dbUrl}: no user ${userName}`);
    return rows[0].userId;
  });

/** The data of `size`: built unless the database holds it already; its server process. */
async function serve(size: number, port: number): Promise<SizeServer> {
  const name = `icrs_bench_caseload_scale_${size}`;
  const mark = `${LAYOUT}:${size}`;
  let dbUrl = databaseUrl(ADMIN_URL as string, name);
  const built = process.env.BENCH_REBUILD !== '1' && (await builtMark(dbUrl)) === mark;
  if (!built) dbUrl = await freshDatabase(ADMIN_URL as string, name);
  const { url, child } = await spawnServer(`caseload-scale-${size}`, process.cwd(), port, dbUrl);
  const admin = await login(url, 'admin', ADMIN_PASSWORD);
  if (!built) {
    const started = performance.now();
    await withDb(dbUrl, (db) => ensureOrganisations(db));
    const data: NationalData = { clients: size, organisations: 1, organisation: ORGANISATION, ownClients: size };
    // The client tables' indexes but keys and unique constraints are dropped for the load and
    // made again after it, as bench/scale/build.ts does: at 1M rows, one insert at a time into
    // each index (the trigram ones above all) took most of the build.
    const indexes = await withDb(dbUrl, async (db) => {
      const { rows } = await db.query<{ name: string; sql: string }>(
        `SELECT i.indexname AS name, i.indexdef AS sql FROM pg_indexes i
         WHERE i.schemaname = 'public' AND i.tablename = ANY($1::text[])
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = (quote_ident(i.indexname))::regclass)`,
        [CLIENT_TABLES.map((e) => e.table)],
      );
      for (const index of rows) await db.query(`DROP INDEX "${index.name}"`);
      return rows;
    });
    await buildNationalData(dbUrl, data);
    await withDb(dbUrl, async (db) => {
      await db.query("SET maintenance_work_mem = '256MB'");
      await db.query('SET statement_timeout = 0');
      for (const index of indexes) await db.query(index.sql);
    });
    for (const [user, fullName] of [
      [WORKER, 'Caseload Worker'],
      [COLLEAGUE, 'Caseload Colleague'],
    ] as const)
      await api(url, 'POST', '/users/', { ...user, role: 3, location: ORGANISATION, fullName }, admin);
    const workerId = await userIdOf(dbUrl, WORKER.userName);
    const colleagueId = await userIdOf(dbUrl, COLLEAGUE.userName);
    // The caseload: clients 1..CASELOAD assigned to the worker, the next TERRITORY in their
    // territory, the others in territories 1..8; the clients an assignment moves start with the
    // colleague. Bookkeeping of the bench (triggers off), then analysed.
    await withDb(dbUrl, async (db) => {
      await db.query('SET session_replication_role = replica');
      await db.query(`UPDATE "tbl_profiles" SET "territory" = 1 + right("prof_Id", 12)::int % 8 WHERE "territory" = $1`, [
        WORKER_TERRITORY,
      ]);
      await db.query(`UPDATE "tbl_profiles" SET "assignedTo" = $1 WHERE "prof_Id" = ANY(${keysSql(1, CASELOAD)})`, [workerId]);
      await db.query(`UPDATE "tbl_profiles" SET "territory" = $1 WHERE "prof_Id" = ANY(${keysSql(CASELOAD + 1, TERRITORY)})`, [
        WORKER_TERRITORY,
      ]);
      await db.query(`UPDATE "tbl_profiles" SET "assignedTo" = $1 WHERE "prof_Id" = ANY(${keysSql(ASSIGNED_FROM, ASSIGNED)})`, [
        colleagueId,
      ]);
      await db.query(`UPDATE "users" SET "territories" = $1::jsonb WHERE "userId" = $2`, [JSON.stringify([WORKER_TERRITORY]), workerId]);
      await db.query('SET session_replication_role = origin');
      await db.query('ANALYZE');
      await db.query(
        `INSERT INTO "settings" ("key", "value") VALUES ('benchCaseloadScale', $1) ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value"`,
        [mark],
      );
    });
    console.log(
      `# ${size}: ${size.toLocaleString('en')} clients with their sub-records built in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }
  const workerId = await userIdOf(dbUrl, WORKER.userName);
  const colleagueId = await userIdOf(dbUrl, COLLEAGUE.userName);
  const worker = await login(url, WORKER.userName, WORKER.password);
  return { size, dbUrl, url, kill: () => child.kill('SIGTERM'), admin, worker, workerId, colleagueId };
}

type Checkpoint = { updatedAt: string; id: string } | null;

/** One pull request of `table` after `checkpoint`; its time (ms), rows and next checkpoint. */
async function pullPage(s: SizeServer, table: string, checkpoint: Checkpoint) {
  const query = new URLSearchParams({ limit: String(PULL_PAGE), ...(checkpoint ?? {}) });
  const started = performance.now();
  const response = await fetch(`${s.url}/api/sync/${encodeURIComponent(table)}?${query}`, {
    headers: { authorization: `Bearer ${s.worker}` },
  });
  const body = (await response.json()) as { documents: unknown[]; checkpoint: Checkpoint };
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`pull of ${table}: ${response.status} ${JSON.stringify(body)}`);
  return { ms, rows: body.documents.length, checkpoint: body.checkpoint };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** What one round measures of one size: name → one figure (ms), page times apart. */
async function round(s: SizeServer): Promise<{ figures: Record<string, number>; pages: number[]; rows: number }> {
  const figures: Record<string, number> = {};
  const pages: number[] = [];
  const last = new Map<string, Checkpoint>();
  let rows = 0;
  // A new device's first pull of every client table.
  let total = 0;
  for (const entity of CLIENT_TABLES) {
    let checkpoint: Checkpoint = null;
    for (;;) {
      const page = await pullPage(s, entity.table, checkpoint);
      pages.push(page.ms);
      total += page.ms;
      rows += page.rows;
      checkpoint = page.checkpoint;
      if (page.rows < PULL_PAGE) break;
    }
    last.set(entity.table, checkpoint);
  }
  figures.first_pull = total;
  // Nothing new: one pull of each table from where it stopped.
  const incremental: number[] = [];
  for (const entity of CLIENT_TABLES) incremental.push((await pullPage(s, entity.table, last.get(entity.table) ?? null)).ms);
  figures.incremental = median(incremental);
  // 100 of the worker's clients go to a colleague, then come back: each time the next pull of
  // the clients' table reconciles the caseload first.
  const profiles = CLIENT_TABLES[0]?.table as string;
  const moved = clientKeys(1, REASSIGNED);
  for (const [to, figure] of [
    [s.colleagueId, 'reconcile_leave'],
    [s.workerId, 'reconcile_enter'],
  ] as const) {
    await api(s.url, 'POST', '/profile/assign', { clients: moved, to }, s.admin);
    const page = await pullPage(s, profiles, last.get(profiles) ?? null);
    last.set(profiles, page.checkpoint);
    figures[figure] = page.ms;
  }
  // An administrator assigns 500 clients to the worker (then gives them back, not counted).
  const assigned = clientKeys(ASSIGNED_FROM, ASSIGNED);
  figures.assign_500 = await timed(() => api(s.url, 'POST', '/profile/assign', { clients: assigned, to: s.workerId }, s.admin));
  await api(s.url, 'POST', '/profile/assign', { clients: assigned, to: s.colleagueId }, s.admin);
  figures.pin = await timed(() => api(s.url, 'PUT', `/caseload/pins/${clientKey(PINNED)}`, {}, s.worker));
  figures.unpin = await timed(() => api(s.url, 'DELETE', `/caseload/pins/${clientKey(PINNED)}`, {}, s.worker));
  figures.figures = await timed(() => api(s.url, 'GET', '/caseload', undefined, s.worker));
  figures.preview = await timed(() => api(s.url, 'POST', '/caseload/preview', { userId: s.workerId, clients: assigned }, s.admin));
  // Back to the caseload of the start for the next round: the pull that reconciles it.
  await pullPage(s, profiles, last.get(profiles) ?? null);
  return { figures, pages, rows };
}

/** A Db that prints the plan of each query it is asked (EXPLAIN ANALYZE) and answers no rows. */
function explaining(client: pg.Client, what: string): Db {
  const db = {
    kind: 'postgres',
    async query(sql: string, params?: readonly unknown[]) {
      if (/^\s*SELECT (pg_advisory_xact_lock|pg_current_xact_id|pg_notify)/.test(sql)) return [];
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params as unknown[]);
      console.log(`# plan: ${what}\n${rows.map((r) => `#   ${r['QUERY PLAN']}`).join('\n')}`);
      return [];
    },
    async transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return work(db as unknown as Db);
    },
  };
  return db as unknown as Db;
}

async function explain(s: SizeServer): Promise<void> {
  await withDb(s.dbUrl, async (client) => {
    const user = { userId: s.workerId, role: 3, location: ORGANISATION, userName: WORKER.userName } as unknown as PublicUser;
    await reconcileCaseload(explaining(client, `reconciliation's difference at ${s.size}`), user, 3000);
    for (const table of ['tbl_profiles', 'tbl_skills']) {
      const entity = getEntityByTable(table);
      if (!entity) throw new Error(`no entity of ${table}`);
      await pullChanges(explaining(client, `first page of ${table} at ${s.size}`), entity, user, undefined, PULL_PAGE);
      await pullChanges(
        explaining(client, `page of ${table} from mid-2025 at ${s.size}`),
        entity,
        user,
        { updatedAt: '2025-06-01T00:00:00.000000Z', id: '' },
        PULL_PAGE,
      );
    }
    await caseloadFigures(explaining(client, `figures at ${s.size}`), { userId: s.workerId, organisation: ORGANISATION }, 3000);
  });
}

const ORDER = [
  'first_pull',
  'page_p50',
  'incremental',
  'reconcile_leave',
  'reconcile_enter',
  'assign_500',
  'pin',
  'unpin',
  'figures',
  'preview',
] as const;

async function main() {
  const servers: SizeServer[] = [];
  try {
    for (const [i, size] of SIZES.entries()) servers.push(await serve(size, 18_501 + i));
    if (process.env.BENCH_BUILD_ONLY === '1') return;
    console.log(
      `# caseload at scale: PostgreSQL, organisations of ${SIZES.map((s) => s.toLocaleString('en')).join(', ')} clients with their sub-records; a role-3 worker with ${CASELOAD} assigned + ${TERRITORY} in their territory; ${RUNS} rounds; load ${loadText()}`,
    );
    const results = new Map<number, Record<string, number[]>>(SIZES.map((s) => [s, {}]));
    // One round to warm each server up (its caches, the members reconciled once), not counted.
    for (const s of servers) await round(s);
    for (let run = 0; run < RUNS; run++) {
      const order = run % 2 ? [...servers].reverse() : servers;
      for (const s of order) {
        const { figures, pages, rows } = await round(s);
        const kept = results.get(s.size) as Record<string, number[]>;
        for (const [name, value] of Object.entries({ ...figures, page_p50: median(pages) })) (kept[name] ??= []).push(value);
        console.log(
          `# round ${run + 1} ${s.size}: first pull ${rows} rows in ${pages.length} pages, ${figures.first_pull?.toFixed(0)} ms; ${Object.entries(
            figures,
          )
            .filter(([n]) => n !== 'first_pull')
            .map(([n, v]) => `${n} ${v.toFixed(1)}`)
            .join(', ')}; load ${loadText()}`,
        );
      }
    }
    const smallest = SIZES[0] as number;
    const largest = SIZES.at(-1) as number;
    const p50 = (size: number, name: string) => median(results.get(size)?.[name] ?? []);
    for (const name of ORDER) {
      for (const size of SIZES) console.log(`caseload_scale.${name}_${size}_p50: ${p50(size, name).toFixed(1)} ms`);
      console.log(`caseload_scale.${name}_ratio: ${(p50(largest, name) / p50(smallest, name)).toFixed(2)} x (${largest} ÷ ${smallest})`);
    }
    console.log(`\n| p50, ms | ${SIZES.map((s) => s.toLocaleString('en')).join(' | ')} | ${largest / 1000}k ÷ ${smallest / 1000}k |`);
    console.log(`|---|${SIZES.map(() => '---:').join('|')}|---:|`);
    for (const name of ORDER)
      console.log(
        `| ${name} | ${SIZES.map((s) => p50(s, name).toFixed(1)).join(' | ')} | ${(p50(largest, name) / p50(smallest, name)).toFixed(2)} |`,
      );
    console.log(`# load ${loadText()}`);
    if (process.env.BENCH_EXPLAIN === '1') await explain(servers.at(-1) as SizeServer);
  } finally {
    for (const s of servers) s.kill();
  }
}

if (process.env.VITEST) {
  const { bench } = await import('vitest');
  bench.skip('caseload at scale: run `npx tsx bench/caseload-scale.bench.ts`', () => undefined);
} else {
  await withResults('caseload-scale', main);
}
