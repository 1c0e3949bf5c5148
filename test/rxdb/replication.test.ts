// Pull replication (ADR-0015) against a real server: GET /api/sync/{table} with checkpoints,
// the SSE change stream, soft deletions, and local pending documents left alone.
import axios, { type AxiosInstance } from 'axios';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { docFromRow } from '../../schemas/derive/rxdb';
import { sampleBody } from '../../schemas/derive/sample';
import { profile, profileImage, service, serviceProvider } from '../../schemas/index';
import { createDataLayer, type LookupLists } from '../../src/lib/data';
import { collectionOf, type IcrsDatabase } from '../../src/lib/store/database';
import {
  REPLICATED_ENTITIES,
  startReplication,
  type EventSourceFactory,
  type EventSourceLike,
  type Replication,
} from '../../src/lib/sync/replication';
import { writeSynced } from '../../src/lib/data/docs';
import { discardPending, resetDatabase } from '../../src/lib/sync/upload';
import { controlledEventSource } from '../helpers/event-source';
import { ensureOrganisations, multipartRequest, PNG_1PX } from '../helpers/records';
import { openTestDb } from '../helpers/rxdb';
import { startTestServer, type TestServer } from '../helpers/server';

const PASSWORD = 'field-password-1';

let t: TestServer;
let token: string;
let http: AxiosInstance;
let db: IcrsDatabase;
let replication: Replication | undefined;
const openedStreams: string[] = [];

/** The app's EventSource, over fetch (Node 20 has none); it counts the streams it opens. */
const fetchEventSource = (url: string): EventSourceLike => controlledEventSource({ onOpen: (u) => openedStreams.push(u) }).open(url);

/** Waits until `check` holds (the stream and the pull are asynchronous). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function newProvider(extra: Record<string, unknown> = {}): Promise<string> {
  const body: Record<string, unknown> = { ...sampleBody(serviceProvider), ...extra };
  const { status } = await t.api('POST', '/sproviers/', { token, body });
  expect(status).toBe(201);
  return body.sp_Id as string;
}

const local = (key: string) => collectionOf(db, serviceProvider).findOne(key).exec();

/** Starts the providers' pull, as a page load does (no change stream by default), and waits
 * until it has caught up with the server. */
async function pullProviders(eventSource: EventSourceFactory | null = null): Promise<Replication> {
  const started = startReplication({ db, http, token, tables: [serviceProvider.table], eventSource });
  replication = started;
  await started.awaitInSync();
  return started;
}

beforeAll(async () => {
  t = await startTestServer();
  await ensureOrganisations(t.server.db);
  await t.createUser({ userName: 'field', password: PASSWORD, role: 3, location: 1 });
  token = await t.login('field', PASSWORD);
  http = axios.create({ baseURL: `${t.url}/api`, headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'en' } });
});
afterAll(async () => {
  await t?.close();
});

beforeEach(async () => {
  db = await openTestDb();
  openedStreams.length = 0;
});
afterEach(async () => {
  await replication?.stop();
  replication = undefined;
  await db?.close();
});

describe('the change stream opening after the first pull', () => {
  it('pulls once more when the stream first opens: a change committed while it connected is not missed', async () => {
    const listeners: ((event: { data?: unknown }) => void)[] = [];
    const source: EventSourceLike & { readyState: number } = {
      readyState: 0,
      addEventListener: (type, listener) => {
        if (type === 'open') listeners.push(listener);
      },
      close: () => undefined,
    };
    let asked = false;
    await pullProviders(() => {
      asked = true;
      return source;
    });
    await until(async () => asked, 'the stream asked for');
    // Written after the start's pull, before the stream listens: no event reaches this device.
    const key = await newProvider();
    await new Promise((r) => setTimeout(r, 300));
    expect(await local(key)).toBeNull();
    source.readyState = 1;
    for (const listener of listeners) listener({});
    await until(async () => (await local(key)) !== null, 'the pull after the stream opened');
  });
});

describe('pull replication', () => {
  it('mirrors the 12 server-backed collections (not files)', () => {
    expect(REPLICATED_ENTITIES.map((e) => e.table)).toHaveLength(12);
    expect(REPLICATED_ENTITIES.map((e) => e.table)).not.toContain('files');
  });

  it('rows created through the API arrive, told by one shared change stream', async () => {
    const before = await newProvider({ sp_Name: 'Before start' });
    const heard: string[] = [];
    replication = startReplication({ db, http, token, eventSource: fetchEventSource, onServerChange: (table) => heard.push(table) });
    await replication.awaitInSync();
    expect((await local(before))?.toJSON()).toMatchObject({ sp_Name: 'Before start', syncState: 'synced' });

    const after = await newProvider({ sp_Name: 'After start' });
    const child = { ...sampleBody(service, { serviceProvider: after }) } as Record<string, unknown>;
    expect((await t.api('POST', '/spDetail/', { token, body: child })).status).toBe(201);
    await until(async () => (await local(after)) !== null, 'the new provider');
    await until(
      async () =>
        (await collectionOf(db, service)
          .findOne(child.sp_Detail_Id as string)
          .exec()) !== null,
      'its service',
    );
    expect(openedStreams).toHaveLength(1);
    // Opened with a single-use ticket, never the session token (ADR-0002).
    expect(openedStreams[0]).toMatch(new RegExp(`^${t.url}/api/sync/stream\\?ticket=[\\w-]{43}$`));
    expect(openedStreams[0]).not.toContain(token);
    // Screens showing server figures hear the same stream (ADR-0031: the dashboard).
    expect(heard).toEqual(expect.arrayContaining([serviceProvider.table, service.table]));
  });

  it('a soft-deleted row is removed locally', async () => {
    const key = await newProvider();
    await pullProviders(fetchEventSource);
    expect(await local(key)).not.toBeNull();
    const deleted = await t.api('POST', `/sproviers/delete/${key}`, { token, body: { reason: 'closed down', password: PASSWORD } });
    expect(deleted.status).toBe(200);
    await until(async () => (await local(key)) === null, 'the deletion');
  });

  it('a local pending document is neither overwritten nor deleted by a pull', async () => {
    const key = await newProvider({ sp_Name: 'Server name' });
    await pullProviders(fetchEventSource);
    const data = createDataLayer({ db, http, isOnline: () => false, user: null, lists: null });
    await data.update(serviceProvider, key, { sp_Name: 'Edited offline' });

    expect((await t.api('PUT', `/sproviers/${key}`, { token, body: { sp_Name: 'Edited on server' } })).status).toBe(200);
    const marker = await newProvider(); // arrives after the edit above: the pull has seen both
    await until(async () => (await local(marker)) !== null, 'the pull after the server edit');
    expect((await local(key))?.toJSON()).toMatchObject({ sp_Name: 'Edited offline', syncState: 'pending', syncOp: 'update' });

    await t.api('POST', `/sproviers/delete/${key}`, { token, body: { reason: 'closed down', password: PASSWORD } });
    const marker2 = await newProvider();
    await until(async () => (await local(marker2)) !== null, 'the pull after the deletion');
    expect((await local(key))?.toJSON()).toMatchObject({ sp_Name: 'Edited offline', syncState: 'pending' });
  });

  it('a server row met while the record was pending comes back after a reload, when the edit is dropped', async () => {
    const key = await newProvider({ sp_Name: 'Server name' });
    const page = await pullProviders(fetchEventSource);
    const data = createDataLayer({ db, http, isOnline: () => false, user: null, lists: null });
    await data.update(serviceProvider, key, { sp_Name: 'Edited offline' });
    expect((await t.api('PUT', `/sproviers/${key}`, { token, body: { sp_Name: 'Edited on server' } })).status).toBe(200);
    const marker = await newProvider(); // the pull has passed the server edit, held in memory
    await until(async () => (await local(marker)) !== null, 'the pull after the server edit');

    // A reload: the held row was only in the page's memory; the checkpoint is past it.
    await page.stop();
    await pullProviders(fetchEventSource);
    expect((await local(key))?.toJSON()).toMatchObject({ sp_Name: 'Edited offline', syncState: 'pending' });
    expect(await discardPending(db, serviceProvider.table, key)).toBe(true);
    await until(async () => (await local(key))?.get('syncState') === 'synced', "the server's copy");
    expect((await local(key))?.toJSON()).toMatchObject({ sp_Name: 'Edited on server', syncState: 'synced' });
  });

  it("an offline edit discarded while not pulling brings back the server's unchanged copy at the next start", async () => {
    const key = await newProvider({ sp_Name: 'Unchanged on the server' });
    await (await pullProviders()).stop();
    replication = undefined;
    const data = createDataLayer({ db, http, isOnline: () => false, user: null, lists: null });
    await data.update(serviceProvider, key, { sp_Name: 'Edited offline' });
    expect(await discardPending(db, serviceProvider.table, key)).toBe(true);
    expect(await local(key)).toBeNull();

    await pullProviders();
    expect((await local(key))?.toJSON()).toMatchObject({ sp_Name: 'Unchanged on the server', syncState: 'synced' });
  });

  it('when the change stream comes back after a cut, what changed meanwhile is pulled', async () => {
    const stream = controlledEventSource({ reconnectMs: 50 });
    await pullProviders(stream.open);
    const before = await newProvider({ sp_Name: 'Told by the stream' });
    await until(async () => (await local(before)) !== null, 'a row told by the open stream');

    stream.hold();
    stream.drop(); // the stream is down: the change below is never told
    const missed = await newProvider({ sp_Name: 'Made while the stream was down' });
    stream.release();
    await until(async () => (await local(missed)) !== null, 'the row made while the stream was down');
    // The source's own reconnect is refused (its ticket was used: ADR-0002), so a second
    // EventSource opens, with a new ticket, and everything is pulled.
    expect(stream.opened).toHaveLength(2);
    expect(new Set(stream.opened).size).toBe(2);
  });

  /** Runs `between` right after the pull learns the stored state of `key`, before it writes:
   * after a read of it, or after a write refused because the document was there (an insert
   * tried first, docs/offline-contract.md "Pull replication"). */
  function betweenReadAndWrite(key: string, between: () => Promise<unknown>): { happened: () => boolean } {
    const storage = collectionOf(db, serviceProvider).storageInstance;
    const read = storage.findDocumentsById.bind(storage);
    const write = storage.bulkWrite.bind(storage);
    let happened = false;
    storage.findDocumentsById = async (ids, deleted) => {
      const found = await read(ids, deleted);
      if (!happened && ids.includes(key)) {
        happened = true;
        await between();
      }
      return found;
    };
    storage.bulkWrite = async (rows, context) => {
      const result = await write(rows, context);
      if (!happened && result.error.some((e) => e.documentId === key && e.status === 409)) {
        happened = true;
        await between();
      }
      return result;
    };
    return { happened: () => happened };
  }

  it('a record the upload engine settles while a pull is deciding on it comes back as the server copy, not pending', async () => {
    const body: Record<string, unknown> = { ...sampleBody(serviceProvider), sp_Name: 'Uploaded' };
    expect((await t.api('POST', '/sproviers/', { token, body })).status).toBe(201);
    const key = body.sp_Id as string;
    const collection = collectionOf(db, serviceProvider);
    await collection.insert({
      ...docFromRow(serviceProvider, { ...body, createdAt: new Date().toISOString() }),
      syncState: 'pending',
      syncOp: 'create',
    });
    const race = betweenReadAndWrite(key, () => collection.bulkRemove([key])); // the engine's settle
    await pullProviders();
    expect(race.happened()).toBe(true);
    await until(async () => (await local(key)) !== null, 'the server copy');
    expect((await local(key))?.toJSON()).toMatchObject({ sp_Name: 'Uploaded', syncState: 'synced' });
  });

  it('an edit made while a pull is deciding on the record stays pending (the pull write is refused)', async () => {
    const key = await newProvider({ sp_Name: 'Server v1' });
    await (await pullProviders()).stop();
    expect((await t.api('PUT', `/sproviers/${key}`, { token, body: { sp_Name: 'Server v2' } })).status).toBe(200);
    const edit = () =>
      collectionOf(db, serviceProvider)
        .findOne(key)
        .exec()
        .then((d) => d?.incrementalPatch({ sp_Name: 'Edited offline', syncState: 'pending', syncOp: 'update' }));
    const race = betweenReadAndWrite(key, edit);
    await pullProviders();
    expect(race.happened()).toBe(true);
    expect((await local(key))?.toJSON()).toMatchObject({ sp_Name: 'Edited offline', syncState: 'pending', syncOp: 'update' });
  });

  it('pages through more rows than one pull takes, from checkpoint to checkpoint', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 25; i += 1) keys.push(await newProvider({ sp_Name: `Paged ${i}` }));
    const requests: unknown[] = [];
    const counting = axios.create(http.defaults);
    counting.interceptors.request.use((config) => {
      if (config.url?.startsWith('/sync/')) requests.push(config.params);
      return config;
    });
    replication = startReplication({ db, http: counting, token, tables: [serviceProvider.table], eventSource: null, batchSize: 10 });
    await replication.awaitInSync();
    const mirrored = await collectionOf(db, serviceProvider).findByIds(keys).exec();
    expect(mirrored.size).toBe(25);
    expect(requests.length).toBeGreaterThanOrEqual(3);
    expect(requests[0]).toEqual({ limit: 10 });
    expect(requests[1]).toMatchObject({ limit: 10, updatedAt: expect.any(String), id: expect.any(String) });
  });

  it('writes a pulled page in small pieces, losing no row and leaving a pending record alone', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 60; i += 1) keys.push(await newProvider({ sp_Name: `Piece ${i}` }));
    // One of them edited on this device before the first pull: it must stay pending.
    const pendingKey = keys[30] as string;
    const data = createDataLayer({ db, http, isOnline: () => false, user: null, lists: null });
    await writeSynced(db, serviceProvider, [(await t.api('GET', `/sproviers/${pendingKey}`, { token })).body]);
    await data.update(serviceProvider, pendingKey, { sp_Name: 'Edited here first' });
    const writes: number[] = [];
    const sub = collectionOf(db, serviceProvider)
      .storageInstance.changeStream()
      .subscribe((bulk) => writes.push(bulk.events.length));
    replication = startReplication({ db, http, token, tables: [serviceProvider.table], eventSource: null, batchSize: 200 });
    await replication.awaitInSync();
    sub.unsubscribe();
    const mirrored = await collectionOf(db, serviceProvider).findByIds(keys).exec();
    expect(mirrored.size).toBe(60);
    expect(mirrored.get(pendingKey)?.toJSON()).toMatchObject({ sp_Name: 'Edited here first', syncState: 'pending' });
    expect(Math.max(...writes)).toBeLessThanOrEqual(50); // tablePull.ts WRITE_PIECE
    expect(writes.reduce((n, w) => n + w, 0)).toBeGreaterThanOrEqual(59);
  });

  it("after 'Reset Database' the next pull brings back every server record, not only changed ones", async () => {
    const keys = [await newProvider({ sp_Name: 'Kept on the server 1' }), await newProvider({ sp_Name: 'Kept on the server 2' })];
    const pull = await pullProviders();
    expect((await collectionOf(db, serviceProvider).findByIds(keys).exec()).size).toBe(2);

    await resetDatabase(db);
    expect(await collectionOf(db, serviceProvider).count().exec()).toBe(0);
    await pull.awaitInSync(); // no server change in between: only a forgotten checkpoint brings them back
    expect((await collectionOf(db, serviceProvider).findByIds(keys).exec()).size).toBe(2);
  });

  it('profile images arrive without their bytes (those stay on the server)', async () => {
    const lists = (await http.get<LookupLists>('/lists/profilelist')).data;
    const user = { userId: 'x', userName: 'field', role: 3, location: 1, fullName: null };
    // Made through the API by the data layer of another device: this store stays empty.
    const other = await openOtherDevice();
    const person = await createDataLayer({ db: other, http, isOnline: () => true, user, lists }).create(profile, {
      ...sampleBody(profile),
      prof_Reg_No: undefined,
    });
    await other.close();
    const upload = await multipartRequest(t, 'PUT', `/profile/images/${person.prof_Id}`, token, { img_for: 'photo' }, { file: PNG_1PX });
    expect(upload.status).toBe(200);

    db = await openTestDb();
    replication = startReplication({ db, http, token, tables: [profile.table, profileImage.table], eventSource: null });
    await replication.awaitInSync();
    const image = await collectionOf(db, profileImage).findOne(`${person.prof_Id}|photo`).exec();
    expect(image?.toJSON()).toMatchObject({ prof_Id: person.prof_Id, img_for: 'photo', data: '', syncState: 'synced' });
  });
});

/** The test's own store is closed first: the open-core RxDB allows 13 open collections. */
async function openOtherDevice(): Promise<IcrsDatabase> {
  await db.close();
  return openTestDb();
}
