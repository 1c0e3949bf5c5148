// The upload engine and the pull replication together (issue 10 §2), as in the app: the same
// store, the change stream on, a real server, random delays on every answer (the engine's and the
// pull's), lost answers, a server restart and a page reload (the replication stopped and started
// again, its memory lost) in some runs. Every run must end with no record pending (right after
// the upload and after the next pull), every record exactly once on the server, every record
// mirrored on the device as the server's copy, and no settled record ever written back as
// pending (a "resurrection").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import axios, { type AxiosInstance } from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { countPending, uploadAll, type UploadDeps } from '../../src/lib/upload';
import { collectionOf, OFFLINE_ENTITIES, type IcrsDatabase } from '../../src/lib/db/database';
import { startReplication, type Replication } from '../../src/lib/db/replication';
import { fetchEventSource } from '../helpers/event-source';
import { seededRandom, startFaultyProxy, type FaultyProxy } from '../helpers/faulty-proxy';
import { ensureOrganisations, PNG_1PX } from '../helpers/records';
import { openTestDb } from '../helpers/rxdb';
import { startTestServer, type TestServer } from '../helpers/server';

type Body = Record<string, unknown>;

/** Runs and record graphs per run (12 records each): ICRS_UPLOAD_PULL_RUNS=100 for a long soak. */
const RUNS = Number(process.env.ICRS_UPLOAD_PULL_RUNS ?? 20);
const GRAPHS_PER_RUN = 2;
const SEED = Number(process.env.ICRS_UPLOAD_PULL_SEED ?? 1017);

const dataDir = mkdtempSync(path.join(tmpdir(), 'icrs-upload-pull-'));
const random = seededRandom(SEED);
let t: TestServer;
/** The engine's way to the server: faults when a run asks for them. */
let uploadProxy: FaultyProxy;
/** The pull's and the stream's way: never faulty, but it follows the server across a restart. */
let pullProxy: FaultyProxy;
let token: string;
let userId: string;
let db: IcrsDatabase;
let replication: Replication;
const expected = new Map<EntityShape, Set<string>>();
let expectedImages = 0;
/** Writes that made a document pending which was not pending just before, outside seeding. */
const resurrections: string[] = [];
let seeding = false;

/** An axios client whose every answer (and failure) arrives after a random delay of up to `maxMs`. */
function delayedClient(baseURL: string, maxMs: number): AxiosInstance {
  const client = axios.create({ baseURL, headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'en' } });
  const pause = () => new Promise((resolve) => setTimeout(resolve, Math.floor(random() * maxMs)));
  client.interceptors.response.use(
    async (response) => {
      await pause();
      return response;
    },
    async (error: unknown) => {
      await pause();
      throw error;
    },
  );
  return client;
}

beforeAll(async () => {
  t = await startTestServer({ config: { dataDir } }); // on disk: it must survive a restart
  await ensureOrganisations(t.server.db);
  ({ userId } = await t.createUser({ userName: 'field', password: 'field-password-1', role: 3, location: 1 }));
  token = await t.login('field', 'field-password-1');
  uploadProxy = await startFaultyProxy({ target: t.url, seed: SEED });
  pullProxy = await startFaultyProxy({ target: t.url });
  db = await openTestDb();
  for (const entity of OFFLINE_ENTITIES) {
    collectionOf(db, entity).$.subscribe((event) => {
      const now = event.documentData as Body | undefined;
      const before = event.previousDocumentData as Body | undefined;
      const wasPending = event.operation === 'UPDATE' && before?.syncState === 'pending';
      if (!seeding && event.operation !== 'DELETE' && now?.syncState === 'pending' && !wasPending)
        resurrections.push(`${entity.table} ${event.documentId}`);
    });
  }
  replication = startPulling();
  await replication.awaitInSync();
}, 180_000);

function startPulling(): Replication {
  return startReplication({
    db,
    http: delayedClient(`${pullProxy.url}/api`, 40),
    token,
    eventSource: fetchEventSource({ reconnectMs: 100 }),
    retryTime: 200,
  });
}

/** A page reload: the replication stops (rows it held in memory are gone) and starts again. */
async function reloadPage(): Promise<void> {
  await replication.stop();
  replication = startPulling();
}

afterAll(async () => {
  await replication?.stop();
  await db?.close();
  await uploadProxy?.close();
  await pullProxy?.close();
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// --- local records (the shape the data layer stores offline) ---------------------------------

const col = (entity: EntityShape) => collectionOf(db, entity);
const expect1 = (entity: EntityShape, key: string) => expected.set(entity, (expected.get(entity) ?? new Set()).add(key));

async function addPending(entity: EntityShape, body: Body): Promise<string> {
  const doc = docFromRow(entity, { ...body, createdAt: new Date().toISOString() }) as Body;
  return (await col(entity).insert({ ...doc, syncState: 'pending', syncOp: 'create' })).primary;
}

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

/** One record of every kind (job, other job, provider, service, apprenticeship, vocational,
 * profile with skills, social, security, business and its photo), half the jobs and services
 * with an image. */
async function seedGraph(i: number): Promise<void> {
  const add = async (entity: EntityShape, refs: Record<string, string> = {}) => {
    const body = sampleBody(entity, refs);
    if (entity === profile) body.prof_Reg_No = registrationNumber('ICRS');
    const key = await addPending(entity, body);
    expect1(entity, key);
    return key;
  };
  const jb = await add(job);
  if (i % 2 === 0) await addImage(job, jb, 1);
  await add(otherJob, { job: jb });
  const sp = await add(serviceProvider);
  const spd = await add(service, { serviceProvider: sp });
  if (i % 2 === 1) await addImage(service, spd, 2);
  await add(apprenticeship, { service: spd });
  await add(vocational, { service: spd });
  const prof = await add(profile);
  for (const sub of [skills, social, security, business]) await add(sub, { profile: prof });
  const photo = await addPending(profileImage, {
    prof_Id: prof,
    img_for: 'photo',
    name: 'photo.png',
    type: 'image/png',
    size: PNG_1PX.length,
    data: PNG_1PX.toString('base64'),
  });
  expect1(profileImage, photo);
  expectedImages += 1;
}

// --- running and checking ----------------------------------------------------------------------

function deps(): UploadDeps {
  return { db, http: delayedClient(`${uploadProxy.url}/api`, 30), notify: () => undefined, isConnected: () => true };
}

async function restartServer(): Promise<void> {
  await t.close();
  t = await startTestServer({ config: { dataDir } }); // same folder: what was committed is there
  uploadProxy.setTarget(t.url);
  pullProxy.setTarget(t.url);
}

/** Every uploaded record is on the device as the server's copy (none missing from the mirror). */
async function expectMirrored(run: number): Promise<void> {
  for (const [entity, keys] of expected) {
    const docs = await col(entity)
      .findByIds([...keys])
      .exec();
    const synced = [...docs.values()].filter((d) => d.get('syncState') === 'synced').length;
    expect(synced, `run ${run}: ${entity.table} mirrored as server copies`).toBe(keys.size);
  }
}

async function expectOnServerExactlyOnce(): Promise<void> {
  const sql = t.server.db;
  for (const [entity, keys] of expected) {
    if (entity === profileImage) continue; // keyed by profile and kind, counted below
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
}

describe('upload engine and pull replication together', () => {
  it(`${RUNS} runs with random delays, lost answers, server restarts and reloads: 0 pending, every record once and mirrored, none resurrected`, async () => {
    let restarts = 0;
    let reloads = 0;
    for (let run = 1; run <= RUNS; run += 1) {
      seeding = true;
      for (let g = 0; g < GRAPHS_PER_RUN; g += 1) await seedGraph(run * GRAPHS_PER_RUN + g);
      seeding = false;
      const faulty = run % 3 === 0;
      const restart = run % 10 === 2;
      const reload = run % 2 === 1;
      uploadProxy.setFaults(
        faulty ? { failRate: 0.05, failAfterRate: 0.05, dropRate: 0.1 } : { failRate: 0, failAfterRate: 0, dropRate: 0 },
      );

      let restarting: Promise<void> | undefined;
      let reloading: Promise<void> | undefined;
      let rounds = 0;
      for (; rounds < 40 && (await countPending(db)) > 0; rounds += 1) {
        await uploadAll(deps(), {
          onProgress: (r) => {
            if (restart && !restarting && r.done >= r.total / 3) restarting = restartServer();
            if (reload && !reloading && r.done >= r.total / 2) reloading = reloadPage();
          },
        });
        await restarting;
        await reloading;
      }
      if (restarting) restarts += 1;
      if (reloading) reloads += 1;
      expect(await countPending(db), `run ${run}: pending after ${rounds} uploads`).toBe(0);
      // A plain run needs one upload; lost answers and a restart may need a few.
      if (!faulty && !restart) expect(rounds, `run ${run}: uploads needed`).toBe(1);

      await replication.awaitInSync();
      expect(await countPending(db), `run ${run}: pending after the next pull`).toBe(0);
      replication.reSync();
      await replication.awaitInSync();
      expect(await countPending(db), `run ${run}: pending after another pull`).toBe(0);
      expect(resurrections, `run ${run}: records written back as pending`).toEqual([]);
      await expectOnServerExactlyOnce();
      await expectMirrored(run);
    }
    expect(restarts).toBeGreaterThan(0);
    expect(reloads).toBeGreaterThan(0);
    expect(uploadProxy.stats.dropped).toBeGreaterThan(0);
    // The pull did mirror the uploads: every uploaded provider is in the store as a server copy.
    const providers = await col(serviceProvider)
      .findByIds([...(expected.get(serviceProvider) ?? [])])
      .exec();
    expect([...providers.values()].every((d) => d.get('syncState') === 'synced')).toBe(true);
    expect(providers.size).toBe(expected.get(serviceProvider)?.size);
  }, 300_000);
});
