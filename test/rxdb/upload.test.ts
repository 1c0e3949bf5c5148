// The upload engine (ADR-0018, product.md §4, §8) over fake-indexeddb against a real server: the
// order, each per-record outcome, the report, parents and children, conflicts, images, and the
// rescue of a device's work through export and import.
import axios, { type AxiosInstance } from 'axios';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EntityShape } from '../../schemas/define';
import { registrationNumber, uuidv7 } from '../../schemas/ids';
import {
  job,
  offlineCollections,
  otherJob,
  profile,
  profileImage,
  service,
  serviceProvider,
  skills,
  social,
  uploadOrder,
  vocational,
} from '../../schemas/index';
import { collectionOf, OFFLINE_ENTITIES, type IcrsDatabase } from '../../src/lib/store/database';
import {
  countPending,
  discardPending,
  exportPending,
  importPending,
  listPending,
  NO_CONNECTION,
  PARENT_NOT_UPLOADED,
  pending$,
  resetDatabase,
  resolveConflict,
  retry,
  uploadAll,
  type UploadDeps,
} from '../../src/lib/sync/upload';
import { startFieldSetup } from '../helpers/field';
import { bodyOf, photoBody, pngFor, refsTo, writeUnit, type PendingOp, type UnitWriter } from '../helpers/pending';
import { PNG_1PX } from '../helpers/records';
import { addPending as addPendingTo, addPendingImage, openTestDb } from '../helpers/rxdb';
import type { TestServer } from '../helpers/server';

type Body = Record<string, unknown>;

const NOT_FOUND = 'No record with this id';

let t: TestServer;
let token: string;
let db: IcrsDatabase | undefined;

beforeAll(async () => {
  ({ t, token } = await startFieldSetup());
});
afterEach(async () => {
  await db?.close();
  db = undefined;
});
afterAll(() => t?.close());

// --- local records ---------------------------------------------------------------------------

const open = async () => (db = await openTestDb());
const col = (entity: EntityShape) => collectionOf(db as IcrsDatabase, entity);

const addPending = (entity: EntityShape, body: Body, op: PendingOp = 'create', base?: string) =>
  addPendingTo(db as IcrsDatabase, entity, body, op, base);

async function addImage(owner: EntityShape, srcId: string, imgNo: number): Promise<Buffer> {
  const bytes = pngFor(`${srcId}-${imgNo}`);
  await addPendingImage(db as IcrsDatabase, owner, srcId, imgNo, bytes);
  return bytes;
}

interface Graph {
  keys: Map<EntityShape, string[]>;
  images: { owner: EntityShape; key: string; slot: string; bytes: Buffer }[];
  profileImages: { prof_Id: string; bytes: Buffer }[];
}

/** `n` of each top-level record with every kind of child (12 records each) and some images. */
async function seedGraph(n: number): Promise<Graph> {
  const graph: Graph = { keys: new Map(), images: [], profileImages: [] };
  const note = (entity: EntityShape, key: string) => graph.keys.set(entity, [...(graph.keys.get(entity) ?? []), key]);
  const writer: UnitWriter<string> = {
    record: async (entity, parent) => {
      const key = await addPending(entity, bodyOf(entity, refsTo(entity, parent)));
      note(entity, key);
      return key;
    },
    image: async (owner, key, slot) => {
      graph.images.push({ owner, key, slot: `${owner === job ? 'jb' : 'sp'}_img${slot}`, bytes: await addImage(owner, key, slot) });
    },
    photo: async (prof) => {
      const bytes = pngFor(`photo-${prof}`);
      await addPending(profileImage, photoBody(prof, bytes));
      note(profileImage, `${prof}|photo`);
      graph.profileImages.push({ prof_Id: prof, bytes });
    },
  };
  for (let i = 0; i < n; i += 1) await writeUnit(writer, { job: i % 2 === 0 ? 1 : undefined, service: i % 2 === 1 ? 2 : undefined });
  return graph;
}

// --- the server side -----------------------------------------------------------------------

/** Records a request log and the most requests in flight at once. */
function client(): { http: AxiosInstance; log: string[]; maxInFlight: () => number } {
  const http = axios.create({ baseURL: `${t.url}/api`, headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'en' } });
  const log: string[] = [];
  let inFlight = 0;
  let most = 0;
  http.interceptors.request.use((config) => {
    log.push(`${String(config.method).toUpperCase()} ${config.url}`);
    most = Math.max(most, ++inFlight);
    return config;
  });
  const done = () => {
    inFlight -= 1;
  };
  http.interceptors.response.use(
    (r) => {
      done();
      return r;
    },
    (e: unknown) => {
      done();
      return Promise.reject(e);
    },
  );
  return { http, log, maxInFlight: () => most };
}

function deps(http: AxiosInstance, extra: Partial<UploadDeps> = {}): UploadDeps & { notify: ReturnType<typeof vi.fn> } {
  return { db: db as IcrsDatabase, http, notify: vi.fn(), isConnected: () => true, ...extra } as UploadDeps & {
    notify: ReturnType<typeof vi.fn>;
  };
}

async function serverCount(entity: EntityShape, keys: readonly string[]): Promise<number> {
  const column = entity.keyFields[0] as string;
  const rows = await t.server.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM "${entity.table}" WHERE "${column}" = ANY($1::text[])`,
    [[...keys]],
  );
  return rows[0]?.n ?? 0;
}

const apiGet = (path: string) => t.api('GET', path, { token });

async function seedServerJob(): Promise<Body> {
  const body = bodyOf(job);
  expect((await t.api('POST', '/jobs/', { token, body })).status).toBe(201);
  return body;
}

async function localCount(): Promise<number> {
  const counts = await Promise.all(OFFLINE_ENTITIES.map((e) => col(e).count().exec()));
  return counts.reduce((a, b) => a + b, 0);
}

/** The upload kind a request belongs to (a batch names its table; else the longest REST prefix). */
function kindOf(request: string): number {
  const url = request.split(' ')[1] ?? '';
  const pushed = /^\/sync\/push\/(.+)$/.exec(url);
  if (pushed) return uploadOrder.findIndex((e) => e.table === decodeURIComponent(pushed[1] as string));
  let best = -1;
  let length = 0;
  uploadOrder.forEach((e, i) => {
    const rest = e.rest ?? '';
    if ((url === rest || url.startsWith(`${rest}/`)) && rest.length > length) [best, length] = [i, rest.length];
  });
  return best;
}

async function expectOnServer(graph: Graph) {
  for (const [entity, keys] of graph.keys) {
    if (entity === profileImage) continue;
    expect(await serverCount(entity, keys), entity.table).toBe(keys.length);
  }
  for (const image of graph.images) {
    const row = await apiGet(`${image.owner.rest}/${image.key}`);
    const name = row.body[image.slot] as string;
    expect(name, `${image.owner.table} ${image.slot}`).toBeTruthy();
    const served = await fetch(`${t.url}/api/imgs/getById?id=${image.key}&imagename=${name}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(Buffer.from(await served.arrayBuffer()).equals(image.bytes)).toBe(true);
  }
  for (const image of graph.profileImages) {
    const served = await fetch(`${t.url}/api/imgs/getfile?id=${image.prof_Id}&filename=photo`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(image.bytes)).toBe(true);
  }
}

// --- tests -----------------------------------------------------------------------------------

describe('uploadAll', () => {
  it('sends every kind in spec order, parents first, images with their records, and empties the store', async () => {
    await open();
    const graph = await seedGraph(6);
    const { http, log, maxInFlight } = client();
    const progress: number[] = [];
    const d = deps(http);
    // One request per record, a few at a time (the batched mode: test/rxdb/upload-batch.test.ts).
    const report = await uploadAll(d, { batch: false, onProgress: (r) => progress.push(r.percent) });

    const kinds = log.map(kindOf);
    expect(kinds.every((k) => k >= 0)).toBe(true);
    expect(kinds).toEqual([...kinds].sort((a, b) => a - b)); // product.md §4 order, kind after kind
    expect(new Set(kinds).size).toBe(12);
    expect(maxInFlight()).toBeGreaterThan(1);
    expect(maxInFlight()).toBeLessThanOrEqual(4);
    expect(d.notify).not.toHaveBeenCalled();

    expect(report).toMatchObject({ done: 6 * 12, total: 6 * 12, percent: 100, running: false });
    expect(report.stopped).toBeUndefined();
    expect(report.kinds.map((k) => k.table)).toEqual(uploadOrder.map((e) => e.table));
    for (const kind of report.kinds) expect(kind).toMatchObject({ total: 6, success: 6, failed: 0, skipped: 0, imagesFailed: 0 });
    expect(report.kinds.find((k) => k.table === job.table)?.images).toBe(3);
    expect(report.kinds.find((k) => k.table === service.table)?.images).toBe(3);
    expect(report.kinds.find((k) => k.table === profileImage.table)?.images).toBe(6);
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    expect(await localCount()).toBe(0);
    await expectOnServer(graph);
  });

  it('without connectivity shows the spec error and sends nothing', async () => {
    await open();
    await seedGraph(1);
    const { http, log } = client();
    const d = deps(http, { isConnected: () => false });
    const report = await uploadAll(d);
    expect(d.notify).toHaveBeenCalledExactlyOnceWith('connetivity Error', 'Internet Connectioon is not available');
    expect(NO_CONNECTION).toEqual({ title: 'connetivity Error', text: 'Internet Connectioon is not available' });
    expect(log).toEqual([]);
    expect(report).toMatchObject({ stopped: 'noConnection', done: 0, total: 12, running: false });
    expect(await countPending(db as IcrsDatabase)).toBe(12);
  });

  it('stops at the first 401: with the session gone every further request would be refused', async () => {
    await open();
    await seedGraph(1);
    const http = axios.create({ baseURL: `${t.url}/api`, headers: { Authorization: 'Bearer expired.or.revoked' } });
    const d = deps(http);
    const report = await uploadAll(d, { sequential: true });
    expect(report).toMatchObject({ stopped: 'signedOut', done: 1, total: 12, running: false });
    expect(d.notify).toHaveBeenCalledOnce();
    expect(d.notify.mock.calls[0]?.[0]).toBe('JAALL Error');
    expect(await countPending(db as IcrsDatabase)).toBe(12);
  });

  it('sequential mode sends one record at a time with the same result', async () => {
    await open();
    const graph = await seedGraph(2);
    const { http, maxInFlight } = client();
    const report = await uploadAll(deps(http), { sequential: true });
    expect(maxInFlight()).toBe(1);
    expect(report.kinds.every((k) => k.success === 2)).toBe(true);
    expect(await localCount()).toBe(0);
    await expectOnServer(graph);
  });
});

describe('per-record outcomes', () => {
  it("'duplicate entry': an unchanged copy is dropped, an edited one is PUT, nothing is stored twice", async () => {
    await open();
    const same = bodyOf(job);
    const edited = bodyOf(job);
    for (const body of [same, edited]) expect((await t.api('POST', '/jobs/', { token, body })).status).toBe(201);
    await addPending(job, same);
    await addPending(job, { ...edited, title: 'Edited after the lost answer' });
    const { http, log } = client();
    const d = deps(http);
    const report = await uploadAll(d, { sequential: true });

    expect(report.kinds[0]).toMatchObject({ total: 2, success: 2, failed: 0 });
    expect(log.filter((r) => r.startsWith('PUT'))).toEqual([`PUT /jobs/${edited.jb_Id as string}`]);
    expect(d.notify).not.toHaveBeenCalled();
    expect(await serverCount(job, [same.jb_Id as string, edited.jb_Id as string])).toBe(2);
    expect((await apiGet(`/jobs/${edited.jb_Id as string}`)).body.title).toBe('Edited after the lost answer');
    expect(await localCount()).toBe(0);
  });

  it.each([
    // Sent alone the POST's 'duplicate entry' comes without the server's copy: read it first.
    ['sent alone', { batch: false }, (key: string) => ['POST /jobs/', `GET /jobs/${key}`, `PUT /jobs/${key}`]],
    // A small image travels in the batch, whose 'duplicate entry' carries the server's copy.
    ['in a batch', {}, (key: string) => [`POST /sync/push/${job.table}`, `PUT /jobs/${key}`]],
  ] as const)(
    "'duplicate entry' with an image the server lacks (%s): the image follows, then the record counts as uploaded",
    async (_, options, requests) => {
      await open();
      const body = bodyOf(job);
      const key = body.jb_Id as string;
      expect((await t.api('POST', '/jobs/', { token, body })).status).toBe(201); // stored without its image
      await addPending(job, body);
      const bytes = await addImage(job, key, 2);
      const { http, log } = client();
      const report = await uploadAll(deps(http), options);
      expect(report.kinds[0]).toMatchObject({ success: 1, images: 1 });
      expect(log).toEqual(requests(key));
      await expectOnServer({ keys: new Map([[job, [key]]]), images: [{ owner: job, key, slot: 'jb_img2', bytes }], profileImages: [] });
      expect(await localCount()).toBe(0);
    },
  );

  it("'duplicate entry' of a record someone else changed since: a conflict, not an overwrite", async () => {
    await open();
    const body = bodyOf(otherJob, { job: (await seedServerJob()).jb_Id as string });
    expect((await t.api('POST', '/jobsother/', { token, body })).status).toBe(201);
    expect((await t.api('PUT', `/jobsother/${body.jb_oth_Id as string}`, { token, body: { title: 'Theirs' } })).status).toBe(200);
    await addPending(otherJob, { ...body, title: 'Mine' });
    const { http } = client();
    const d = deps(http);
    const report = await uploadAll(d);
    expect(report.kinds[1]).toMatchObject({ failed: 1, errors: [{ message: 'conflict' }] });
    expect(d.notify).toHaveBeenCalledWith('OtJob Error', 'conflict');
    expect((await apiGet(`/jobsother/${body.jb_oth_Id as string}`)).body.title).toBe('Theirs');
    expect(await listPending(db as IcrsDatabase)).toMatchObject([{ state: 'conflict', conflict: { server: { title: 'Theirs' } } }]);
  });

  it.each([
    ['in a batch', {}, `/sync/push/${serviceProvider.table}`],
    ['sent alone', { batch: false }, '/sproviers/'],
  ] as const)('an edit made while the record was on its way (%s) is kept as an update of the uploaded version', async (_, options, url) => {
    await open();
    const body = bodyOf(serviceProvider);
    const key = await addPending(serviceProvider, body);
    const { http, log } = client();
    // The user saves a change after the POST left and before its answer came back.
    http.interceptors.request.use(async (config) => {
      if (config.method === 'post' && config.url === url)
        await col(serviceProvider)
          .findOne(key)
          .exec()
          .then((d) => d.incrementalPatch({ sp_Name: 'Renamed meanwhile' }));
      return config;
    });
    const first = await uploadAll(deps(http), options);
    expect(log).toContain(`POST ${url}`);
    expect(first.kinds[2]).toMatchObject({ success: 1 });
    const server = await apiGet(`/sproviers/${key}`);
    expect(server.body.sp_Name).toBe(body.sp_Name);
    const kept = await col(serviceProvider).findOne(key).exec();
    expect(kept).toMatchObject({ syncState: 'pending', syncOp: 'update', syncBase: server.body.updatedAt, sp_Name: 'Renamed meanwhile' });

    await uploadAll(deps(client().http), options);
    expect((await apiGet(`/sproviers/${key}`)).body.sp_Name).toBe('Renamed meanwhile');
    expect(await localCount()).toBe(0);
  });

  it('an offline edit that clears a field and adds an image: both reach the server, even across a failure', async () => {
    await open();
    const body = bodyOf(job);
    const key = body.jb_Id as string;
    const created = await t.api('POST', '/jobs/', { token, body });
    expect(created.body.address).toBeTruthy();
    const { address: _cleared, ...edited } = created.body as Body;
    await addPending(job, edited, 'update', created.body.updatedAt as string);
    const bytes = await addImage(job, key, 1);
    const { http, log } = client();
    // The images' request is lost once, after the fields went through.
    let failOnce = true;
    http.interceptors.request.use((config) => {
      if (config.method === 'put' && config.data instanceof FormData && failOnce) {
        failOnce = false;
        throw new Error('network down');
      }
      return config;
    });
    const d = deps(http);
    // Sent alone (a large image, or batch: false); in a batch the fields travel as JSON beside the image.
    const first = await uploadAll(d, { batch: false });
    expect(first.kinds[0]).toMatchObject({ failed: 1, errors: [{ key, message: 'network down' }] });
    const afterFields = await apiGet(`/jobs/${key}`);
    expect(afterFields.body.address).toBeNull();
    expect(await col(job).findOne(key).exec()).toMatchObject({ syncOp: 'update', syncBase: afterFields.body.updatedAt, syncAttempts: 1 });

    const second = await uploadAll(d, { batch: false });
    expect(second.kinds[0]).toMatchObject({ success: 1, images: 1 });
    // Fields then images (refused before it left: not logged), then fields and images again.
    expect(log.filter((r) => r.startsWith('PUT'))).toEqual([`PUT /jobs/${key}`, `PUT /jobs/${key}`, `PUT /jobs/${key}`]);
    await expectOnServer({ keys: new Map([[job, [key]]]), images: [{ owner: job, key, slot: 'jb_img1', bytes }], profileImages: [] });
    expect((await apiGet(`/jobs/${key}`)).body.address).toBeNull();
    expect(await localCount()).toBe(0);
  });

  it("'duplicate entry' on a profile: PUT first (product.md §4), then the local copy goes", async () => {
    await open();
    const unchanged = bodyOf(profile);
    const changed = bodyOf(profile);
    for (const body of [unchanged, changed]) expect((await t.api('POST', '/profile/', { token, body })).status).toBe(201);
    await addPending(profile, unchanged);
    await addPending(profile, { ...changed, firstName: 'Newer' });
    const { http, log } = client();
    const report = await uploadAll(deps(http), { sequential: true });

    expect(report.kinds.find((k) => k.table === profile.table)).toMatchObject({ success: 2, failed: 0 });
    for (const body of [unchanged, changed]) {
      const id = body.prof_Id as string;
      expect(log.filter((r) => r.includes(id))).toEqual([`GET /profile/${id}`, `PUT /profile/${id}`]);
    }
    expect(log.filter((r) => r === 'POST /profile/')).toHaveLength(2);
    expect((await apiGet(`/profile/${changed.prof_Id as string}`)).body.firstName).toBe('Newer');
    expect(await serverCount(profile, [unchanged.prof_Id as string, changed.prof_Id as string])).toBe(2);
    expect(await localCount()).toBe(0);
  });

  it('any other error is shown with the product.md §8 title and the record is kept; its children wait', async () => {
    await open();
    // A profile of another organisation's number: the server refuses it (400).
    const refused = { ...bodyOf(profile), prof_Reg_No: registrationNumber('ADC') };
    const prof = await addPending(profile, refused);
    await addPending(skills, bodyOf(skills, { profile: prof }));
    await addPending(profileImage, photoBody(prof, PNG_1PX, 'p.png'));
    // An update of a provider the server does not have (404): refused too; its service and that service's training wait.
    const sp = await addPending(serviceProvider, bodyOf(serviceProvider), 'update', new Date().toISOString());
    const spd = await addPending(service, bodyOf(service, { serviceProvider: sp }));
    const voc = await addPending(vocational, bodyOf(vocational, { service: spd }));
    const { http, log } = client();
    const d = deps(http);
    const report = await uploadAll(d);

    expect(d.notify).toHaveBeenCalledTimes(2);
    expect(d.notify).toHaveBeenCalledWith('SaveSP Error', NOT_FOUND);
    expect(d.notify.mock.calls.find(([title]) => title === 'Save Prof basic Error')?.[1]).toBe(
      'The registration number must be ICRS followed by 8 characters from A-Z and 0-9',
    );
    const line = (e: EntityShape) => report.kinds.find((k) => k.table === e.table);
    expect(line(serviceProvider)).toMatchObject({ total: 1, failed: 1, errors: [{ key: sp, message: NOT_FOUND }] });
    expect(line(service)).toMatchObject({ total: 1, skipped: 1, errors: [{ key: spd, message: PARENT_NOT_UPLOADED }] });
    expect(line(vocational)).toMatchObject({ skipped: 1, errors: [{ key: voc, message: PARENT_NOT_UPLOADED }] });
    expect(line(skills)).toMatchObject({ skipped: 1, errors: [{ key: prof, message: PARENT_NOT_UPLOADED }] });
    expect(line(profileImage)).toMatchObject({ skipped: 1, imagesFailed: 0 });
    expect(
      log.some((r) => r.startsWith('POST /spDetail') || r.startsWith('POST /vocTrain') || r.startsWith('POST /profile/skprofile')),
    ).toBe(false);

    expect(await countPending(db as IcrsDatabase)).toBe(6);
    const failedProfile = await col(profile).findOne(prof).exec();
    expect(failedProfile.syncAttempts).toBe(1);
    expect(failedProfile.syncError).toBe(d.notify.mock.calls.find(([title]) => title === 'Save Prof basic Error')?.[1]);
    const pending = await listPending(db as IcrsDatabase);
    expect(pending.find((p) => p.key === sp)).toMatchObject({
      table: serviceProvider.table,
      state: 'failed',
      op: 'update',
      attempts: 1,
      lastError: NOT_FOUND,
    });
    expect(pending.find((p) => p.key === spd)).toMatchObject({ state: 'pending', attempts: 0 });
    expect(await serverCount(service, [spd])).toBe(0);

    // Retry clears the error; the record is sent (and refused) again by the next upload.
    expect(await retry(db as IcrsDatabase, serviceProvider.table, sp)).toBe(true);
    expect((await listPending(db as IcrsDatabase)).find((p) => p.key === sp)).toMatchObject({ state: 'pending', attempts: 0 });
    const again = await uploadAll(d, { only: [{ table: serviceProvider.table, key: sp }] });
    expect(again.total).toBe(1);
    expect(again.kinds.find((k) => k.table === serviceProvider.table)).toMatchObject({ failed: 1 });
  });

  it('a record of a client erased on the server meanwhile: refused with the erasure message, never sent again, only discarded', async () => {
    await open();
    await t.createUser({ userName: 'office-erase', password: 'office-password-1', role: 7, location: 1 });
    const office = await t.login('office-erase', 'office-password-1');
    const person = bodyOf(profile);
    expect((await t.api('POST', '/profile/', { token, body: person })).status).toBe(201);
    const prof = String(person.prof_Id);
    // Saved offline: the client's social sheet, and a skills sheet edited from the server's copy.
    await addPending(social, { ...bodyOf(social, { profile: prof }), needs: 'Written offline' });
    expect((await t.api('POST', '/profile/skprofile/', { token, body: { prof_Id: prof, diploma: 'Before' } })).status).toBe(201);
    await addPending(skills, { prof_Id: prof, diploma: 'Edited offline' }, 'update');
    const erased = await t.api('POST', `/profile/${prof}/erase`, {
      token: office,
      body: { reasonCode: 'clientRequest', password: 'office-password-1' },
    });
    expect(erased.status).toBe(200);

    const { http, log } = client();
    const d = deps(http);
    const first = await uploadAll(d);
    const ERASED = "This client's data was erased on the server: nothing more can be stored for this client";
    for (const kind of [social, skills])
      expect(
        first.kinds.find((k) => k.table === kind.table),
        kind.table,
      ).toMatchObject({ failed: 1 });
    expect(d.notify).toHaveBeenCalledWith(expect.any(String), ERASED);
    const pending = await listPending(db as IcrsDatabase);
    expect(pending.map((p) => [p.table, p.state, p.lastError])).toEqual(
      expect.arrayContaining([
        [social.table, 'erased', ERASED],
        [skills.table, 'erased', ERASED],
      ]),
    );
    // Never sent again, nor retried, nor exported: the client's data never reaches the server.
    log.length = 0;
    const second = await uploadAll(d);
    expect(log).toEqual([]);
    expect(second.kinds.find((k) => k.table === social.table)).toMatchObject({ skipped: 1, failed: 0 });
    expect(await retry(db as IcrsDatabase, social.table, prof)).toBe(false);
    expect(JSON.parse(await exportPending(db as IcrsDatabase)).records[social.table]).toEqual([]);
    expect(await countPending(db as IcrsDatabase)).toBe(2);
    // Only the user's discard removes them.
    expect(await discardPending(db as IcrsDatabase, social.table, prof)).toBe(true);
    expect(await discardPending(db as IcrsDatabase, skills.table, prof)).toBe(true);
    expect(await countPending(db as IcrsDatabase)).toBe(0);
    const [stored] = await t.server.db.query<Body>('SELECT "needs" FROM "tbl_profiles_social" WHERE "prof_Id" = $1', [prof]);
    expect(stored?.needs ?? null).toBeNull();
  });

  it('a stale update ends in a conflict that keeps both sides until the user chooses', async () => {
    await open();
    const body = bodyOf(job);
    const created = await t.api('POST', '/jobs/', { token, body });
    const base = created.body.updatedAt as string;
    const key = body.jb_Id as string;
    expect((await t.api('PUT', `/jobs/${key}`, { token, body: { title: 'Changed on the server' } })).status).toBe(200);
    await addPending(job, { ...body, title: 'Changed offline', updatedAt: base }, 'update', base);
    const { http, log } = client();
    const d = deps(http);

    const first = await uploadAll(d);
    expect(first.kinds[0]).toMatchObject({ failed: 1, errors: [{ key, message: 'conflict' }] });
    expect(d.notify).toHaveBeenCalledWith('JAALL Error', 'conflict');
    expect((await apiGet(`/jobs/${key}`)).body.title).toBe('Changed on the server');
    const [record] = await listPending(db as IcrsDatabase);
    expect(record).toMatchObject({
      key,
      state: 'conflict',
      lastError: 'conflict',
      conflict: { server: { title: 'Changed on the server' } },
    });

    // Not sent again while the conflict stands.
    log.length = 0;
    const second = await uploadAll(d);
    expect(second.kinds[0]).toMatchObject({ skipped: 1, failed: 0 });
    expect(log).toEqual([]);

    expect(await resolveConflict(db as IcrsDatabase, job.table, key, 'mine')).toBe(true);
    const third = await uploadAll(d);
    expect(third.kinds[0]).toMatchObject({ success: 1 });
    expect((await apiGet(`/jobs/${key}`)).body.title).toBe('Changed offline');
    expect(await localCount()).toBe(0);
  });

  it("a conflict settled with the server's copy drops the local one", async () => {
    await open();
    const body = bodyOf(serviceProvider);
    const created = await t.api('POST', '/sproviers/', { token, body });
    const key = body.sp_Id as string;
    await t.api('PUT', `/sproviers/${key}`, { token, body: { sp_Name: 'Theirs' } });
    await addPending(serviceProvider, { ...body, sp_Name: 'Mine' }, 'update', created.body.updatedAt as string);
    const { http } = client();
    await uploadAll(deps(http));
    expect(await resolveConflict(db as IcrsDatabase, serviceProvider.table, key, 'server')).toBe(true);
    expect(await localCount()).toBe(0);
    expect((await apiGet(`/sproviers/${key}`)).body.sp_Name).toBe('Theirs');
  });
});

describe('pending records', () => {
  it('lists, counts and observes what waits, and reset empties the store', async () => {
    await open();
    await seedGraph(1);
    const seen: number[] = [];
    const subscription = pending$(db as IcrsDatabase).subscribe((records) => seen.push(records.length));
    const records = await listPending(db as IcrsDatabase);
    expect(records.map((r) => r.table)).toEqual(uploadOrder.map((e) => e.table));
    expect(records.find((r) => r.table === profile.table)?.label).toMatch(/^ICRS[A-Z0-9]{8} /);
    expect(records.every((r) => r.state === 'pending' && r.op === 'create' && r.attempts === 0)).toBe(true);
    expect(await countPending(db as IcrsDatabase)).toBe(12);
    await vi.waitFor(() => expect(seen.at(-1)).toBe(12));
    await resetDatabase(db as IcrsDatabase);
    await vi.waitFor(() => expect(seen.at(-1)).toBe(0));
    subscription.unsubscribe();
    expect(await localCount()).toBe(0);
    expect(offlineCollections).toHaveLength(13);
  });

  it('export then import into a fresh store then upload: each record reaches the server once', async () => {
    db = await openTestDb();
    const graph = await seedGraph(3);
    const json = await exportPending(db);
    const parsed = JSON.parse(json) as {
      format: string;
      version: number;
      exportedAt: string;
      records: Record<string, Body[]>;
      files: Body[];
    };
    expect(parsed).toMatchObject({ format: 'icrs-pending', version: 1 });
    expect(Object.values(parsed.records).flat()).toHaveLength(3 * 12);
    expect(parsed.files).toHaveLength(graph.images.length);
    await db.close(); // the broken device; RxDB's open core allows one store of 13 collections at a time

    db = await openTestDb();
    expect(await importPending(db, json)).toEqual({ imported: 3 * 12, skipped: 0, images: graph.images.length });
    expect(await importPending(db, json)).toEqual({ imported: 0, skipped: 3 * 12, images: 0 });
    const { http } = client();
    const first = await uploadAll(deps(http));
    expect(first.kinds.every((k) => k.success === 3 && k.failed === 0)).toBe(true);
    expect(await localCount()).toBe(0);
    await expectOnServer(graph);

    // The same file imported once more (the first device had uploaded after all): all duplicates, nothing doubled.
    expect((await importPending(db, json)).imported).toBe(3 * 12);
    const second = await uploadAll(deps(http));
    expect(second.kinds.every((k) => k.success === 3 && k.failed === 0)).toBe(true);
    expect(await localCount()).toBe(0);
    await expectOnServer(graph);
  });

  it('refuses a file that is not an export', async () => {
    await open();
    await expect(importPending(db as IcrsDatabase, '{"format":"other"}')).rejects.toThrow(/not an icrs-pending export/);
    await expect(importPending(db as IcrsDatabase, 'not json')).rejects.toThrow(/not an icrs-pending export/);
    const broken = JSON.stringify({
      format: 'icrs-pending',
      version: 1,
      exportedAt: '',
      records: { 'available-jobs': [{ jb_Id: uuidv7() }] },
      files: [],
    });
    await expect(importPending(db as IcrsDatabase, broken)).rejects.toThrow(/missing/);
    expect(await localCount()).toBe(0);
  });
});
