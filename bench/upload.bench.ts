// Upload throughput (ADR-0018, ADR-0013): `npx tsx bench/upload.bench.ts`. A real server (in-memory
// PGlite, or PostgreSQL with TEST_DATABASE_URL=postgres://…), RxDB on Dexie over fake-indexeddb,
// BENCH_RECORDS pending records of every kind (a third of jobs and services with an image and every
// profile with a photo, of BENCH_IMAGE_KB each: 1 record in 7), uploaded from a fresh store in each mode, modes
// alternating within each run. BENCH_LATENCY_MS adds that delay before every request (a slow
// link). Prints `upload.<mode>: <median> records/s` and the ratios to the sequential mode, measured
// in the same runs. BENCH_RECORDS (default 500), BENCH_RUNS (default 3), BENCH_IMAGE_KB (default 0:
// a 1-pixel PNG), BENCH_LATENCY_MS (default 0), BENCH_SEQUENTIAL_RECORDS (default: BENCH_RECORDS;
// fewer keeps a slow-link run short: a rate is a rate).
import axios from 'axios';
import { profileImage } from '../schemas/index';
import { uploadAll, type UploadOptions } from '../src/lib/sync/upload';
import type { IcrsDatabase } from '../src/lib/store/database';
import { bodyOf, photoBody, refsTo, UNIT_RECORDS, writeUnit } from '../test/helpers/pending';
import { ensureOrganisations, PNG_1PX } from '../test/helpers/records';
import { addPending, addPendingImage, openTestDb } from '../test/helpers/rxdb';
import { startTestServer } from '../test/helpers/server';
import { median } from './median';
import { withResults } from './results';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 500);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const IMAGE_KB = Number(process.env.BENCH_IMAGE_KB ?? 0);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 0);
const SEQUENTIAL_RECORDS = Number(process.env.BENCH_SEQUENTIAL_RECORDS ?? RECORDS);

/** A PNG of about IMAGE_KB (the 1-pixel image plus filler the server stores as it is). */
const IMAGE = IMAGE_KB > 0 ? Buffer.concat([PNG_1PX, Buffer.alloc(IMAGE_KB * 1024, 7)]) : PNG_1PX;

/** ceil(RECORDS / 12) units of job, other job, provider, service, apprenticeship, vocational,
 * profile, four profile sub-records and a photo. */
async function seed(db: IcrsDatabase, records: number): Promise<number> {
  const units = Math.ceil(records / UNIT_RECORDS);
  for (let i = 0; i < units; i += 1) {
    await writeUnit<string>(
      {
        record: (entity, parent) => addPending(db, entity, bodyOf(entity, refsTo(entity, parent))),
        image: (owner, key, slot) => addPendingImage(db, owner, key, slot, IMAGE),
        photo: (prof) => addPending(db, profileImage, photoBody(prof, IMAGE, 'p.png')),
      },
      { job: i % 3 === 0 ? 1 : undefined, service: i % 3 === 1 ? 1 : undefined },
    );
  }
  return units * UNIT_RECORDS;
}

async function main() {
  const backend = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  const t = await startTestServer({ backend });
  await ensureOrganisations(t.server.db);
  await t.createUser({ userName: 'bench', password: 'bench-password-1', role: 3, location: 1 });
  const token = await t.login('bench', 'bench-password-1');
  const http = axios.create({ baseURL: `${t.url}/api`, headers: { Authorization: `Bearer ${token}` } });
  if (LATENCY_MS > 0) http.interceptors.request.use((config) => new Promise((resolve) => setTimeout(() => resolve(config), LATENCY_MS)));
  const modes: Record<string, UploadOptions> = {
    sequential: { sequential: true },
    [`concurrent${CONCURRENCY}`]: { batch: false, concurrency: CONCURRENCY },
    batched: {},
  };
  const rates: Record<string, number[]> = Object.fromEntries(Object.keys(modes).map((m) => [m, []]));
  const sizes: Record<string, number> = {};
  for (let run = 0; run < RUNS; run += 1) {
    for (const [mode, options] of Object.entries(modes)) {
      // alternate, so drift hits both alike
      const db = await openTestDb();
      const records = await seed(db, mode === 'sequential' ? SEQUENTIAL_RECORDS : RECORDS);
      sizes[mode] = records;
      const started = performance.now();
      const report = await uploadAll({ db, http, isConnected: () => true }, options);
      const seconds = (performance.now() - started) / 1000;
      await db.close();
      const ok = report.kinds.reduce((n, k) => n + k.success, 0);
      if (ok !== records) throw new Error(`${mode}: ${ok} of ${records} uploaded`);
      rates[mode]?.push(records / seconds);
    }
  }
  await t.close();
  const label = `upload${LATENCY_MS ? `_latency${LATENCY_MS}ms` : ''}`;
  console.log(
    `# ${label}: ${backend}, Dexie on fake-indexeddb, images ${IMAGE.length} bytes, median of ${RUNS} runs; records per mode: ${JSON.stringify(sizes)}`,
  );
  const sequential = median(rates.sequential ?? []);
  for (const [mode, values] of Object.entries(rates)) console.log(`${label}.${mode}: ${median(values).toFixed(1)} records/s`);
  for (const mode of Object.keys(modes).filter((m) => m !== 'sequential')) {
    console.log(`${label}.${mode}_vs_sequential: ${(median(rates[mode] ?? []) / sequential).toFixed(2)} x`);
  }
}

if (process.env.VITEST) {
  // `vitest bench` collects every *.bench.ts; this one is a script with its own timing.
  const { bench } = await import('vitest');
  bench.skip('upload: run `npx tsx bench/upload.bench.ts`', () => undefined);
} else {
  await withResults('upload', main);
}
