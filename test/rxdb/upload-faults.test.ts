// The upload engine under faults (ADR-0018): random 500s, answers lost after the server stored
// the request, an upload aborted half-way, the server killed and restarted mid-upload. Whatever
// happens, repeated uploads end with every record on the server exactly once and the store empty.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import axios from 'axios';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EntityShape } from '../../schemas/define';
import { docFromRow, newestFirstKey } from '../../schemas/derive/rxdb';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import {
  apprenticeship,
  business,
  file,
  job,
  otherJob,
  profile,
  profileImage,
  security,
  service,
  serviceProvider,
  skills,
  social,
  vocational,
} from '../../schemas/index';
import { countPending, uploadAll, type UploadDeps, type UploadOptions } from '../../src/lib/sync/upload';
import { collectionOf, OFFLINE_ENTITIES, type IcrsDatabase } from '../../src/lib/store/database';
import { startFaultyProxy, type FaultyProxy } from '../helpers/faulty-proxy';
import { ensureOrganisations, PNG_1PX } from '../helpers/records';
import { openTestDb } from '../helpers/rxdb';
import { startTestServer, type TestServer } from '../helpers/server';

type Body = Record<string, unknown>;

const dataDir = mkdtempSync(path.join(tmpdir(), 'icrs-upload-faults-'));
let t: TestServer;
let proxy: FaultyProxy;
let token: string;
let userId: string;
let db: IcrsDatabase | undefined;
/** Every key this file puts on the server, by table: the server must hold these and no others. */
const expected = new Map<EntityShape, Set<string>>();
let expectedImages = 0;

beforeAll(async () => {
  t = await startTestServer({ config: { dataDir } }); // on disk: it must survive a restart
  await ensureOrganisations(t.server.db);
  ({ userId } = await t.createUser({ userName: 'field', password: 'field-password-1', role: 3, location: 1 }));
  token = await t.login('field', 'field-password-1');
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

function bodyOf(entity: EntityShape, refs: Record<string, string> = {}): Body {
  const body = sampleBody(entity, refs);
  if (entity === profile) body.prof_Reg_No = registrationNumber('ICRS');
  return body;
}

async function addPending(entity: EntityShape, body: Body, op: 'create' | 'update' = 'create', base?: string): Promise<string> {
  const doc = docFromRow(entity, { ...body, createdAt: new Date().toISOString() }) as Body;
  const stored = await col(entity).insert({ ...doc, syncState: 'pending', syncOp: op, ...(base ? { syncBase: base } : {}) });
  return stored.primary;
}

const expect1 = (entity: EntityShape, key: string) => expected.set(entity, (expected.get(entity) ?? new Set()).add(key));

async function addImage(owner: EntityShape, srcId: string, imgNo: number): Promise<void> {
  const bytes = Buffer.concat([PNG_1PX, Buffer.from(`${srcId}-${imgNo}`)]);
  const pk = `${srcId}|${imgNo}`;
  await col(file).insert({
    pk,
    srcId,
    srcTable: owner.table,
    imgNo,
    name: `img${imgNo}.png`,
    type: 'image/png',
    size: bytes.length,
    data: bytes.toString('base64'),
    syncState: 'pending',
    syncAttempts: 0,
    sortDesc: newestFirstKey(Date.now(), pk),
  });
  expectedImages += 1;
}

/** `n` × (job, other job, provider, service, apprenticeship, vocational, profile, its four
 * sub-records, its photo) = 12n records, a third of jobs and services with images. */
async function seedGraph(n: number): Promise<number> {
  const add = async (entity: EntityShape, refs: Record<string, string> = {}) => {
    const key = await addPending(entity, bodyOf(entity, refs));
    expect1(entity, key);
    return key;
  };
  for (let i = 0; i < n; i += 1) {
    const jb = await add(job);
    if (i % 3 === 0) await addImage(job, jb, 1);
    await add(otherJob, { job: jb });
    const sp = await add(serviceProvider);
    const spd = await add(service, { serviceProvider: sp });
    if (i % 3 === 1) await addImage(service, spd, 3);
    await add(apprenticeship, { service: spd });
    await add(vocational, { service: spd });
    const prof = await add(profile);
    for (const sub of [skills, social, security, business]) await add(sub, { profile: prof });
    await addPending(profileImage, {
      prof_Id: prof,
      img_for: 'photo',
      name: 'photo.png',
      type: 'image/png',
      size: PNG_1PX.length,
      data: PNG_1PX.toString('base64'),
    });
    expectedImages += 1;
  }
  return 12 * n;
}

/** `n` jobs already on the server, edited offline: pending updates based on their `updatedAt`. */
async function seedUpdates(n: number): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  for (let i = 0; i < n; i += 1) {
    const body = bodyOf(job);
    const created = await t.api('POST', '/jobs/', { token, body });
    expect(created.status).toBe(201);
    const key = body.jb_Id as string;
    expect1(job, key);
    titles.set(key, `Edited offline ${i}`);
    await addPending(job, { ...created.body, title: titles.get(key) }, 'update', created.body.updatedAt as string);
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
  for (const [entity, keys] of expected) {
    const key = entity.keyFields[0] as string;
    const [byKey] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${entity.table}" WHERE "${key}" = ANY($1::text[])`, [
      [...keys],
    ]);
    expect(byKey?.n, `${entity.table}: every key once`).toBe(keys.size);
    const [mine] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${entity.table}" WHERE "createdBy" = $1`, [userId]);
    expect(mine?.n, `${entity.table}: nothing else`).toBe(keys.size);
  }
  const [images] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "images" WHERE "createdBy" = $1`, [userId]);
  expect(images?.n, 'images').toBe(expectedImages);
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
