// Pull replication (issue 4 §4) against a real server: GET /api/sync/{table} with checkpoints,
// the SSE change stream, soft deletions, and local pending documents left alone.
import axios, { type AxiosInstance } from 'axios';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { profile, profileImage, service, serviceProvider } from '../../schemas/index';
import { createDataLayer, type LookupLists } from '../../src/lib/datalayer';
import { collectionOf, type IcrsDatabase } from '../../src/lib/db/database';
import { REPLICATED_ENTITIES, startReplication, type EventSourceLike, type Replication } from '../../src/lib/db/replication';
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

/** A minimal EventSource over fetch (Node 20 has none): `event:`/`data:` blocks, open and error. */
function fetchEventSource(url: string): EventSourceLike {
  openedStreams.push(url);
  const listeners = new Map<string, ((event: { data?: unknown }) => void)[]>();
  const emit = (type: string, data?: string) => listeners.get(type)?.forEach((listener) => listener({ data }));
  const controller = new AbortController();
  void (async () => {
    try {
      const response = await fetch(url, { signal: controller.signal });
      if (!response.ok || !response.body) return emit('error');
      emit('open');
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        buffer += chunk.value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data !== undefined) emit(/^event: (.*)$/m.exec(block)?.[1] ?? 'message', data);
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    addEventListener: (type, listener) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
    close: () => controller.abort(),
  };
}

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

beforeAll(async () => {
  t = await startTestServer();
  await ensureOrganisations(t.server.db);
  await t.createUser({ userName: 'field', password: PASSWORD, role: 3, location: 1 });
  token = await t.login('field', PASSWORD);
  http = axios.create({ baseURL: `${t.url}/api`, headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'en' } });
});
afterAll(async () => { await t?.close(); });

beforeEach(async () => { db = await openTestDb(); openedStreams.length = 0; });
afterEach(async () => {
  await replication?.stop();
  replication = undefined;
  await db?.close();
});

describe('pull replication', () => {
  it('mirrors the 12 server-backed collections (not files)', () => {
    expect(REPLICATED_ENTITIES.map((e) => e.table)).toHaveLength(12);
    expect(REPLICATED_ENTITIES.map((e) => e.table)).not.toContain('files');
  });

  it('rows created through the API arrive, told by one shared change stream', async () => {
    const before = await newProvider({ sp_Name: 'Before start' });
    replication = startReplication({ db, http, token, eventSource: fetchEventSource });
    await replication.awaitInSync();
    expect((await local(before))?.toJSON()).toMatchObject({ sp_Name: 'Before start', syncState: 'synced' });

    const after = await newProvider({ sp_Name: 'After start' });
    const child = { ...sampleBody(service, { serviceProvider: after }) } as Record<string, unknown>;
    expect((await t.api('POST', '/spDetail/', { token, body: child })).status).toBe(201);
    await until(async () => (await local(after)) !== null, 'the new provider');
    await until(async () => (await collectionOf(db, service).findOne(child.sp_Detail_Id as string).exec()) !== null, 'its service');
    expect(openedStreams).toHaveLength(1);
    expect(openedStreams[0]).toBe(`${t.url}/api/sync/stream?token=${encodeURIComponent(token)}`);
  });

  it('a soft-deleted row is removed locally', async () => {
    const key = await newProvider();
    replication = startReplication({ db, http, token, tables: [serviceProvider.table], eventSource: fetchEventSource });
    await replication.awaitInSync();
    expect(await local(key)).not.toBeNull();
    const deleted = await t.api('POST', `/sproviers/delete/${key}`, { token, body: { reason: 'closed down', password: PASSWORD } });
    expect(deleted.status).toBe(200);
    await until(async () => (await local(key)) === null, 'the deletion');
  });

  it('a local pending document is neither overwritten nor deleted by a pull', async () => {
    const key = await newProvider({ sp_Name: 'Server name' });
    replication = startReplication({ db, http, token, tables: [serviceProvider.table], eventSource: fetchEventSource });
    await replication.awaitInSync();
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

  it('profile images arrive without their bytes (those stay on the server)', async () => {
    const lists = (await http.get<LookupLists>('/lists/profilelist')).data;
    const user = { userId: 'x', userName: 'field', role: 3, location: 1, fullName: null };
    // Made through the API by the data layer of another device: this store stays empty.
    const other = await openOtherDevice();
    const person = await createDataLayer({ db: other, http, isOnline: () => true, user, lists }).create(profile, { ...sampleBody(profile), prof_Reg_No: undefined });
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
