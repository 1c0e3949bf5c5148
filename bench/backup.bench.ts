// Backup and restore (ADR-0037) of the demo data at BENCH_SCALE (default 5: 250 providers, 1,000
// clients, 750 referrals… and their audit entries), with the functions `npm run backup` and
// `npm run restore` use: an embedded database (PGlite) in a temporary folder, and a scratch
// PostgreSQL database when TEST_DATABASE_URL is set. Each of BENCH_RUNS rounds backs up the
// filled database and restores the file into a new empty one. Prints the file's size and the
// median times.
//
//   npx tsx bench/backup.bench.ts
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/backup.bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { backup } from '../server/ops/backup';
import { humanSize } from '../server/ops/backupFile';
import { restore } from '../server/ops/restore';
import { backends, type Backend } from '../test/helpers/db';
import { drillDatabase, fillDatabase, withDb } from '../test/helpers/backup';
import { median } from './median';
import { startResults } from './results';

const SCALE = Number(process.env.BENCH_SCALE ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const seconds = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
};

async function measure(backend: Backend): Promise<string> {
  // Encrypted, as `npm run backup` makes them by default.
  const KEY = 'bench-passphrase-of-some-length';
  const work = mkdtempSync(path.join(tmpdir(), 'icrs-bench-backup-'));
  const source = await drillDatabase(backend, work, 'source');
  try {
    const { demo } = await withDb(source, (db) => fillDatabase(db, { scale: SCALE }));
    const times = { backup: [] as number[], restore: [] as number[] };
    let bytes = 0;
    for (let run = 0; run < RUNS; run += 1) {
      let file = '';
      times.backup.push(
        await seconds(async () => {
          const result = await backup(source.target, {
            dir: path.join(work, `backups-${run}`),
            key: { kind: 'passphrase', passphrase: KEY },
          });
          file = result.file;
          bytes = result.bytes;
        }),
      );
      const target = await drillDatabase(backend, work, `restored-${run}`);
      try {
        times.restore.push(await seconds(() => restore(target.target, file, { key: { passphrase: KEY } })));
      } finally {
        await target.drop();
      }
    }
    const name = backend === 'pglite' ? 'PGlite' : 'PostgreSQL';
    return [
      `# backup (${name}, scale ${SCALE}: ${demo.profile} clients, ${demo.serviceProvider} providers, ${demo.referral} referrals), median of ${RUNS}`,
      `backup.${backend}.file_kb: ${(bytes / 1024).toFixed(0)} KB  (${humanSize(bytes)})`,
      `backup.${backend}.backup_s: ${median(times.backup).toFixed(2)} s`,
      `backup.${backend}.restore_s: ${median(times.restore).toFixed(2)} s  (into an empty database)`,
    ].join('\n');
  } finally {
    await source.drop();
    rmSync(work, { recursive: true, force: true });
  }
}

const results = startResults('backup');
for (const backend of backends) console.log(await measure(backend));
if (!backends.includes('postgres')) console.log('backup (PostgreSQL): skipped, set TEST_DATABASE_URL to measure it');
results.write();
