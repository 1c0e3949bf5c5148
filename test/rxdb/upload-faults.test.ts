// The upload engine under faults (ADR-0018): random 500s, answers lost after the server stored
// the request, an upload aborted half-way, the server killed and restarted mid-upload. Whatever
// happens, repeated uploads end with every record on the server exactly once and the store empty.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import axios from 'axios';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EntityShape } from '../../schemas/define';
import { job } from '../../schemas/index';
import { countPending, uploadAll, type UploadDeps, type UploadOptions } from '../../src/lib/sync/upload';
import { collectionOf, OFFLINE_ENTITIES, type IcrsDatabase } from '../../src/lib/store/database';
import { startFaultyProxy, type FaultyProxy } from '../helpers/faulty-proxy';
import { startFieldSetup } from '../helpers/field';
import { bodyOf, UNIT_RECORDS, writeUnit } from '../helpers/pending';
import { addPending, openTestDb } from '../helpers/rxdb';
import { startTestServer, type TestServer } from '../helpers/server';
import { UploadLedger } from '../helpers/upload-ledger';

const dataDir = mkdtempSync(path.join(tmpdir(), 'icrs-upload-faults-'));
let t: TestServer;
let proxy: FaultyProxy;
let token: string;
let userId: string;
let db: IcrsDatabase | undefined;
/** Every record this file puts on the server: the server must hold these and no others. */
const expected = new UploadLedger();

beforeAll(async () => {
  const field = await startFieldSetup({ config: { dataDir } }); // on disk: it must survive a restart
  ({ t, token } = field);
  userId = field.user.userId;
  proxy = await startFaultyProxy({ target: t.url, seed: 20240517 });
});
afterEach(async () => {
  await db?.close();
  db = undefined;
  proxy.setFaults({ failRate: 0, failAfterRate: 0, dropRate: 0, hangRate: 0 });
});
afterAll(async () => {
  await proxy?.close();
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// --- local records (the shape the data layer stores offline) ---------------------------------

const col = (entity: EntityShape) => collectionOf(db as IcrsDatabase, entity);

/** `n` × (job, other job, provider, service, apprenticeship, vocational, profile, its four
 * sub-records, its photo) = 12n records, a third of jobs and services with images. */
async function seedGraph(n: number): Promise<number> {
  const writer = expected.writer(() => db as IcrsDatabase);
  for (let i = 0; i < n; i += 1) await writeUnit(writer, { job: i % 3 === 0 ? 1 : undefined, service: i % 3 === 1 ? 3 : undefined });
  return UNIT_RECORDS * n;
}

/** `n` jobs already on the server, edited offline: pending updates based on their `updatedAt`. */
async function seedUpdates(n: number): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  for (let i = 0; i < n; i += 1) {
    const body = bodyOf(job);
    const created = await t.api('POST', '/jobs/', { token, body });
    expect(created.status).toBe(201);
    const key = body.jb_Id as string;
    expected.add(job, key);
    titles.set(key, `Edited offline ${i}`);
    await addPending(db as IcrsDatabase, job, { ...created.body, title: titles.get(key) }, 'update', created.body.updatedAt as string);
  }
  return titles;
}

// --- running and checking ----------------------------------------------------------------------

function deps(): UploadDeps {
  const http = axios.create({ baseURL: `${proxy.url}/api`, headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'en' } });
  return { db: db as IcrsDatabase, http, notify: () => undefined, isConnected: () => true };
}

/** Uploads again and again, as a user would, until nothing is pending; answers the rounds. */
async function uploadUntilDone(options: UploadOptions = {}, maxRounds = 60): Promise<number> {
  for (let round = 1; round <= maxRounds; round += 1) {
    await uploadAll(deps(), options);
    if ((await countPending(db as IcrsDatabase)) === 0) return round;
  }
  throw new Error(`${await countPending(db as IcrsDatabase)} records still pending after ${maxRounds} uploads`);
}

async function expectExactlyOnceAndEmpty(titles = new Map<string, string>()) {
  const sql = t.server.db;
  await expected.expectOnServer(sql, userId);
  for (const [key, title] of titles) {
    const [row] = await sql.query<{ title: string }>('SELECT "title" FROM "available-jobs" WHERE "jb_Id" = $1', [key]);
    expect(row?.title).toBe(title);
  }
  const local = await Promise.all(OFFLINE_ENTITIES.map((e) => col(e).count().exec()));
  expect(
    local.reduce((a, b) => a + b, 0),
    'local store',
  ).toBe(0);
}

// --- tests -----------------------------------------------------------------------------------

// Each case uploads several times through faults, and the cases count the server's rows of all
// the cases before them: one cut short by a timeout fails every later one. 120 s each: a loaded
// CI took 31 s for the first (13 s alone), past Vitest's default of 30.
describe('upload under faults', { timeout: 120_000 }, () => {
  it('random 500s and lost answers: repeated uploads store every record exactly once', async () => {
    db = await openTestDb();
    const records = await seedGraph(10);
    const titles = await seedUpdates(10);
    // Batches (with their small images, profile photos too) make few requests: small batches
    // (a few records each) and rates high enough that each fault happens.
    proxy.setFaults({ failRate: 0.25, failAfterRate: 0.15, dropRate: 0.2 });
    const before = { ...proxy.stats };
    const rounds = await uploadUntilDone({ batchBytes: 2048 });
    expect(records + titles.size).toBe(130);
    expect(rounds).toBeGreaterThan(1);
    // The faults did happen, each kind of them.
    expect(proxy.stats.failed - before.failed).toBeGreaterThan(0);
    expect(proxy.stats.failedAfter - before.failedAfter).toBeGreaterThan(0);
    expect(proxy.stats.dropped - before.dropped).toBeGreaterThan(0);
    await expectExactlyOnceAndEmpty(titles);
  });

  it('the same in the strictly sequential mode', async () => {
    db = await openTestDb();
    await seedGraph(5);
    proxy.setFaults({ failRate: 0.1, failAfterRate: 0.1, dropRate: 0.1 });
    await uploadUntilDone({ sequential: true });
    await expectExactlyOnceAndEmpty();
  });

  it('an upload aborted half-way resumes without loss or double', async () => {
    db = await openTestDb();
    await seedGraph(8);
    proxy.setFaults({ dropRate: 0.1 });
    const controller = new AbortController();
    const report = await uploadAll(deps(), {
      signal: controller.signal,
      onProgress: (r) => {
        if (r.done >= r.total / 3) controller.abort();
      },
    });
    expect(report.stopped).toBe('aborted');
    expect(report.done).toBeLessThan(report.total);
    expect(await countPending(db)).toBeGreaterThan(0);
    await uploadUntilDone();
    await expectExactlyOnceAndEmpty();
  });

  it('the server killed and restarted mid-upload: nothing lost, nothing doubled', async () => {
    db = await openTestDb();
    await seedGraph(10);
    proxy.setFaults({ dropRate: 0.05 });
    let closing: Promise<void> | undefined;
    const report = await uploadAll(deps(), {
      onProgress: (r) => {
        if (!closing && r.done >= r.total / 3) closing = t.close();
      },
    });
    await closing;
    expect(report.done).toBeLessThan(report.total + 1);
    const left = await countPending(db);
    expect(left).toBeGreaterThan(0);

    t = await startTestServer({ config: { dataDir } }); // same folder: what was committed is there
    proxy.setTarget(t.url);
    await uploadUntilDone();
    await expectExactlyOnceAndEmpty();
  });
  it('a request that never answers fails within its bound, the run ends, and the next uploads store every record once', async () => {
    db = await openTestDb();
    await seedGraph(4);
    const before = await countPending(db);
    proxy.setFaults({ hangRate: 1 });
    const bound = 400;
    const report = await uploadAll(deps(), { requestBoundMs: bound, batchBytes: 2048 });
    // Without the bound this run would wait for good (only Stop ended it).
    expect(report.stopped).toBe('connectionLost');
    const messages = new Set(report.kinds.flatMap((k) => k.errors.map((e) => e.message)));
    expect([...messages]).toContain(`timeout of ${bound}ms exceeded`);
    expect(await countPending(db)).toBe(before);
    expect(proxy.stats.hung).toBeGreaterThan(0);

    // The server did store what the hung requests carried: the next uploads settle them
    // ('duplicate entry'), each once; a few more hangs on the way change nothing.
    proxy.setFaults({ hangRate: 0.15 });
    for (let round = 1; round <= 60 && (await countPending(db)) > 0; round += 1) {
      await uploadAll(deps(), { requestBoundMs: 2_000, batchBytes: 2048 });
    }
    await expectExactlyOnceAndEmpty();
  });
});
