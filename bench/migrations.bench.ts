// Upgrades (ADR-0014): the migrations this tree adds, run on a copy of the demo data as a
// release before them left it. The demo data (`seed:demo --scale BENCH_SCALE`, default 5) is
// seeded with the code of BENCH_BASE (default the commit before migration '0020-audit-log' was
// added: `git log -S"0020-audit-log" --oneline -- server/db/migrations.ts`, then its parent) into
// an embedded PGlite folder and, with TEST_DATABASE_URL, into a scratch PostgreSQL database.
// Each run then opens a fresh copy of each (the folder copied; the database made from it as a
// template) with this tree's code and runs `migrate()`: every migration applied is printed with
// its time, then the total (median of BENCH_RUNS, default 1). It checks on the way that exactly
// the migrations the base lacks were applied, that a second `migrate()` applies nothing, and
// that no row of any entity table was lost or added.
//
//   npx tsx bench/migrations.bench.ts
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/migrations.bench.ts
//
// The base tree is exported (git archive) once into the system's temp folder; it uses this
// tree's node_modules when the base's lock file asks for nothing this one lacks, else its own
// `npm ci`.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { serverEntities } from '../schemas/index';
import { openDb, type Db } from '../server/db/index';
import { coreMigrations, migrate, type Migration } from '../server/db/migrations';
import { LOCK_FILE } from '../server/lib/dataDirLock';
import { median } from './median';
import { startResults } from './results';

const BASE = process.env.BENCH_BASE ?? '42b09a8e^'; // the tree before '0020-audit-log' (the commit that added it, squashed)
const SCALE = Number(process.env.BENCH_SCALE ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const ADMIN_URL = process.env.TEST_DATABASE_URL;

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
const baseCommit = git('rev-parse', '--short', `${BASE}^{commit}`);

interface LockFile {
  packages: Record<string, { version?: string }>;
}

/** True when every package the base's lock file installs is installed here at the same version. */
function sameDependencies(baseDir: string): boolean {
  const read = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8')) as LockFile;
  const ours = read(process.cwd()).packages;
  return Object.entries(read(baseDir).packages).every(([name, entry]) => name === '' || ours[name]?.version === entry.version);
}

/** The base tree, exported beside this one (once): a plain copy, so no worktree is left registered. */
function baseTree(): string {
  const dir = path.join(tmpdir(), `icrs-bench-migrations-base-${baseCommit}`);
  if (!existsSync(path.join(dir, 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${baseCommit} | tar -x -C "${dir}"`]);
  }
  if (!existsSync(path.join(dir, 'node_modules'))) {
    if (sameDependencies(dir)) symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'));
    else execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  }
  return dir;
}

/** `seed:demo --scale SCALE` with the base's code, into the database `env` names. */
function seedWithBase(baseDir: string, env: Record<string, string>): number {
  const started = performance.now();
  // The database is the one `env` names: never one of the caller's environment.
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/seed-demo.ts', '--scale', String(SCALE)], {
    cwd: baseDir,
    env: { ...inherited, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return performance.now() - started;
}

/** Rows of every entity table: a migration must not lose or add any. */
async function entityRows(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const entity of serverEntities) {
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${entity.table}"`);
    counts[entity.table] = row?.n ?? 0;
  }
  return counts;
}

interface Timed {
  ids: string[];
  /** Each applied migration's time, in order. */
  ms: Record<string, number>;
  /** The whole `migrate()`: the lock, the bookkeeping and the one transaction's commit too. */
  totalMs: number;
  /** Rows of the entity tables it ran on. */
  rows: number;
}

/** `migrate()` of this tree, each migration's `up` timed. */
async function timedMigrate(db: Db): Promise<Timed> {
  const ms: Record<string, number> = {};
  const timed: Migration[] = coreMigrations.map((migration) => ({
    id: migration.id,
    up: async (tx) => {
      const started = performance.now();
      await migration.up(tx);
      ms[migration.id] = performance.now() - started;
    },
  }));
  const started = performance.now();
  const ids = await migrate(db, timed);
  return { ids, ms, totalMs: performance.now() - started, rows: 0 };
}

/** Migrates one copy of the base's demo data and checks what it did. */
async function migrateCopy(db: Db, label: string): Promise<Timed> {
  try {
    const done = new Set((await db.query<{ id: string }>('SELECT "id" FROM "schema_migrations"')).map((r) => r.id));
    const missing = coreMigrations.map((m) => m.id).filter((id) => !done.has(id));
    const before = await entityRows(db);
    const result = await timedMigrate(db);
    const problems: string[] = [];
    if (result.ids.join() !== missing.join())
      problems.push(`applied ${result.ids.join(', ') || 'nothing'}, expected ${missing.join(', ')}`);
    const again = await migrate(db);
    if (again.length) problems.push(`a second migrate() applied ${again.join(', ')}`);
    const after = await entityRows(db);
    for (const [table, rows] of Object.entries(before))
      if (after[table] !== rows) problems.push(`${table}: ${rows} rows before, ${after[table]} after`);
    if (problems.length) throw new Error(`${label}: ${problems.join('; ')}`);
    return { ...result, rows: Object.values(before).reduce((sum, n) => sum + n, 0) };
  } finally {
    await db.close();
  }
}

function report(label: string, runs: Timed[]) {
  const ids = runs[0]?.ids ?? [];
  console.log(
    `# migrations.${label}: ${ids.length} applied on the demo data at scale ${SCALE} seeded by ${baseCommit} ` +
      `(${runs[0]?.rows ?? 0} rows in the entity tables), median of ${runs.length} run${runs.length > 1 ? 's' : ''}`,
  );
  for (const id of ids) console.log(`migrations.${label}.${id}_ms: ${median(runs.map((r) => r.ms[id] ?? Number.NaN)).toFixed(0)} ms`);
  console.log(`migrations.${label}.total_ms: ${median(runs.map((r) => r.totalMs)).toFixed(0)} ms  (migrate() whole)`);
}

const results = startResults('migrations');
const baseDir = baseTree();
const work = mkdtempSync(path.join(tmpdir(), 'icrs-bench-migrations-'));
const created: string[] = [];
const adminQuery = async (sql: string) => {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
};
const databaseUrl = (name: string) => {
  const url = new URL(ADMIN_URL as string);
  url.pathname = `/${name}`;
  return url.toString();
};

try {
  // PGlite: one folder seeded by the base, copied for each run (its lock file left behind).
  const seeded = path.join(work, 'seeded');
  const seedMs = seedWithBase(baseDir, { DATA_DIR: seeded });
  console.log(`migrations.pglite: demo data at scale ${SCALE} seeded by ${baseCommit} in ${(seedMs / 1000).toFixed(1)} s`);
  const pgliteRuns: Timed[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const copy = path.join(work, `copy-${run}`);
    cpSync(seeded, copy, { recursive: true, filter: (source) => path.basename(source) !== LOCK_FILE });
    pgliteRuns.push(await migrateCopy(await openDb({ dataDir: copy }), 'pglite'));
    rmSync(copy, { recursive: true, force: true });
  }
  report('pglite', pgliteRuns);

  if (!ADMIN_URL) {
    console.log('migrations.postgres: skipped (set TEST_DATABASE_URL to run it on PostgreSQL too)');
  } else {
    // PostgreSQL: one scratch database seeded by the base, the template of each run's copy.
    const stamp = `${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const template = `icrs_bench_migrations_${stamp}`;
    await adminQuery(`CREATE DATABASE "${template}"`);
    created.push(template);
    const pgSeedMs = seedWithBase(baseDir, { DATABASE_URL: databaseUrl(template) });
    console.log(`migrations.postgres: demo data at scale ${SCALE} seeded by ${baseCommit} in ${(pgSeedMs / 1000).toFixed(1)} s`);
    const postgresRuns: Timed[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const copy = `${template}_copy${run}`;
      await adminQuery(`CREATE DATABASE "${copy}" TEMPLATE "${template}"`);
      created.push(copy);
      postgresRuns.push(await migrateCopy(await openDb({ databaseUrl: databaseUrl(copy), dataDir: work }), 'postgres'));
    }
    report('postgres', postgresRuns);
  }
} finally {
  for (const name of created.reverse()) await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  rmSync(work, { recursive: true, force: true });
}
results.write();
