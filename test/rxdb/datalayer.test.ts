// The data layer (docs/offline-contract.md): the same calls online and offline, against a real
// server and icrs_db over fake-indexeddb.
import axios, { type AxiosInstance } from 'axios';
import { firstValueFrom, type Observable } from 'rxjs';
import { filter } from 'rxjs/operators';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntityShape } from '../../schemas/define';
import { sampleBody } from '../../schemas/derive/sample';
import { isRegistrationNumber, registrationNumber, SUPER_ADMIN_CANNOT_CREATE, uuidv7, uuidv7Time } from '../../schemas/ids';
import { file, job, profile, profileImage, service, serviceProvider, skills } from '../../schemas/index';
import { countPending, uploadAll } from '../../src/lib/sync/upload';
import { prefetchPage } from '../../src/lib/data/prefetch';
import { readFirstPageAhead } from '../../src/lib/data/localList';
import { emitServerChange } from '../../src/lib/util/events';
import { ConflictError, createDataLayer, type CreateResult, type DataLayer, type ListResult, type LookupLists } from '../../src/lib/data';
import { collectionOf, type IcrsDatabase } from '../../src/lib/store/database';
import type { SessionUser } from '../../src/lib/session/session';
import { FIELD_PASSWORD as PASSWORD, startFieldSetup } from '../helpers/field';
import { PNG_1PX } from '../helpers/records';
import { openTestDb } from '../helpers/rxdb';
import type { TestServer } from '../helpers/server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestServer;
let token: string;
let http: AxiosInstance;
let lists: LookupLists;
let fieldUser: SessionUser;
let db: IcrsDatabase;
let online = true;

/**
 * The session of a device that mirrors its organisation's window (an office worker's, role 5):
 * a page read online is written into its store. A field worker's device mirrors by members and
 * keeps only what it holds (schemas/scope.ts `mirrorsByMembers`; tested below). The data layer
 * decides on the session's role; the server answers the same organisation's pages to both.
 */
const windowUser = (): SessionUser => ({ ...fieldUser, role: 5 });

function layer(user: SessionUser | null = fieldUser, cachedLists: LookupLists | null = lists, client: AxiosInstance = http): DataLayer {
  return createDataLayer({ db, http: client, isOnline: () => online, user, lists: cachedLists });
}

/** A body without its key and registration number: the data layer makes them. */
function values(entity: EntityShape, refs: Record<string, string> = {}): Record<string, unknown> {
  const body = { ...sampleBody(entity, refs) } as Record<string, unknown>;
  for (const k of [...entity.keyFields, 'prof_Reg_No']) if (!entity.parent || k !== entity.parent.field) delete body[k];
  return body;
}

const png = () => new Blob([new Uint8Array(PNG_1PX)], { type: 'image/png' });

async function serverRow(path: string) {
  return t.api('GET', path, { token });
}

beforeAll(async () => {
  ({ t, token, http, lists, user: fieldUser } = await startFieldSetup());
});
afterAll(async () => {
  await t?.close();
});

beforeEach(async () => {
  db = await openTestDb();
  online = true;
});
afterEach(async () => {
  await db?.close();
});

describe('create', () => {
  it('offline: a pending create with a device key and a newest-first sort key', async () => {
    online = false;
    const before = Date.now();
    const doc = await layer().create(serviceProvider, values(serviceProvider));
    expect(doc.sp_Id).toMatch(UUID);
    expect(uuidv7Time(doc.sp_Id)).toBeGreaterThanOrEqual(before);
    expect(doc).toMatchObject({ syncState: 'pending', syncOp: 'create', syncAttempts: 0, location: 1 });
    expect(doc.sortDesc.endsWith(doc.sp_Id)).toBe(true);
    expect(Number(doc.sortDesc.slice(0, 13))).toBeLessThanOrEqual(9_999_999_999_999 - before);
    expect((await serverRow(`/sproviers/${doc.sp_Id}`)).status).toBe(404);
  });

  it('offline: declared defaults are filled (a new service is pending verification)', async () => {
    online = false;
    const provider = await layer().create(serviceProvider, values(serviceProvider));
    const doc = await layer().create(service, values(service, { serviceProvider: provider.sp_Id }));
    expect(doc).toMatchObject({ sp_Id: provider.sp_Id, status: 0, syncState: 'pending' });
  });

  it('online: stored on the server and kept locally as synced', async () => {
    const doc = await layer().create(serviceProvider, values(serviceProvider));
    const { status, body } = await serverRow(`/sproviers/${doc.sp_Id}`);
    expect(status).toBe(200);
    expect(doc).toMatchObject({ syncState: 'synced', sp_Name: body.sp_Name, updatedAt: body.updatedAt, location: 1 });
    expect(doc.syncOp).toBeUndefined();
  });

  it('online: saving the same key again (a lost answer) updates instead of failing', async () => {
    const first = await layer().create(serviceProvider, values(serviceProvider));
    const again = await layer().create(serviceProvider, { ...values(serviceProvider), sp_Id: first.sp_Id, sp_Name: 'Second try' });
    expect(again).toMatchObject({ sp_Id: first.sp_Id, sp_Name: 'Second try', syncState: 'synced' });
    expect((await serverRow(`/sproviers/${first.sp_Id}`)).body.sp_Name).toBe('Second try');
  });

  it('online: profile sub-records go through their create-or-update route', async () => {
    const owner = await layer().create(profile, values(profile));
    const first = await layer().create(skills, { prof_Id: owner.prof_Id, diploma: 'First' });
    expect(first).toMatchObject({ prof_Id: owner.prof_Id, diploma: 'First', syncState: 'synced' });
    const second = await layer().update(skills, owner.prof_Id, { diploma: 'Second' });
    expect(second).toMatchObject({ diploma: 'Second', syncState: 'synced' });
    expect((await serverRow(`/profile/skprofile/${owner.prof_Id}`)).body.diploma).toBe('Second');
  });

  it('online without a network: the save waits in RxDB as pending', async () => {
    const dead = axios.create({ baseURL: 'http://127.0.0.1:9/api' });
    const doc = await layer(fieldUser, lists, dead).create(serviceProvider, values(serviceProvider));
    expect(doc).toMatchObject({ syncState: 'pending', syncOp: 'create' });
  });

  it('offline: a key already stored (a Save repeated) is refused as a duplicate, never doubled, the stored record kept', async () => {
    online = false;
    const first = await layer().create(serviceProvider, { ...values(serviceProvider), sp_Name: 'Kept' });
    await expect(layer().create(serviceProvider, { ...values(serviceProvider), sp_Id: first.sp_Id, sp_Name: 'Again' })).rejects.toThrow(
      'duplicate entry',
    );
    const owner = await layer().create(profile, values(profile));
    await expect(layer().create(profile, { ...values(profile), prof_Id: owner.prof_Id })).rejects.toThrow('duplicate entry');
    expect((await layer().get(serviceProvider, first.sp_Id))?.sp_Name).toBe('Kept');
    expect(await collectionOf(db, serviceProvider).count().exec()).toBe(1);
    expect(await collectionOf(db, profile).count().exec()).toBe(1);
  });

  it('offline: what create answers is what the store holds', async () => {
    online = false;
    const owner = await layer().create(profile, values(profile));
    const storedDoc = await collectionOf(db, profile).findOne(owner.prof_Id).exec();
    expect(owner).toEqual(storedDoc?.toMutableJSON());
    expect(isRegistrationNumber(owner.prof_Reg_No, 'ICRS')).toBe(true);
  });

  it('profile sub-records: a second offline create of the one record is an edit', async () => {
    online = false;
    const owner = await layer().create(profile, values(profile));
    await layer().create(skills, { prof_Id: owner.prof_Id, diploma: 'First' });
    const again = await layer().create(skills, { prof_Id: owner.prof_Id, diploma: 'Second' });
    expect(again).toMatchObject({ prof_Id: owner.prof_Id, diploma: 'Second', syncOp: 'create' });
  });
});

describe('update', () => {
  it('offline edit of a synced record: pending update based on the server updatedAt', async () => {
    const created = await layer().create(serviceProvider, values(serviceProvider));
    online = false;
    const edited = await layer().update(serviceProvider, created.sp_Id, { sp_Name: 'Edited offline', contact: null });
    expect(edited).toMatchObject({ syncState: 'pending', syncOp: 'update', syncBase: created.updatedAt, sp_Name: 'Edited offline' });
    expect(edited.contact).toBeUndefined();
    expect((await serverRow(`/sproviers/${created.sp_Id}`)).body.sp_Name).toBe(created.sp_Name);
  });

  it('offline edit of a pending create stays a create', async () => {
    online = false;
    const created = await layer().create(serviceProvider, values(serviceProvider));
    const edited = await layer().update(serviceProvider, created.sp_Id, { sp_Name: 'Renamed' });
    expect(edited).toMatchObject({ syncState: 'pending', syncOp: 'create', sp_Name: 'Renamed' });
    expect(edited.syncBase).toBeUndefined();
  });

  it('online: the server takes it; an edit based on a stale copy is a conflict, and the server copy is kept locally', async () => {
    const created = await layer().create(serviceProvider, values(serviceProvider));
    const updated = await layer().update(serviceProvider, created.sp_Id, { sp_Name: 'Edited online' });
    expect(updated).toMatchObject({ syncState: 'synced', sp_Name: 'Edited online' });
    expect((await serverRow(`/sproviers/${created.sp_Id}`)).body.sp_Name).toBe('Edited online');

    // Someone else edits the record; this device still holds the older copy.
    const other = await t.api('PUT', `/sproviers/${created.sp_Id}`, { token, body: { sp_Name: 'Edited elsewhere' } });
    expect(other.status).toBe(200);
    await expect(layer().update(serviceProvider, created.sp_Id, { sp_Name: 'Mine' })).rejects.toBeInstanceOf(ConflictError);
    expect(await layer().get(serviceProvider, created.sp_Id)).toMatchObject({ sp_Name: 'Edited elsewhere', syncState: 'synced' });
  });

  it('an edit based on a version older than the copy pulled meanwhile is refused, online and offline, and changes nothing', async () => {
    const created = await layer().create(serviceProvider, values(serviceProvider));
    const openedOn = created.updatedAt as string;
    // A colleague's change reaches this device (as replication would write it) while the form is open.
    const other = await t.api('PUT', `/sproviers/${created.sp_Id}`, { token, body: { sp_Name: 'Edited elsewhere' } });
    expect(other.status).toBe(200);
    expect(await layer().get(serviceProvider, created.sp_Id)).toMatchObject({ sp_Name: 'Edited elsewhere', syncState: 'synced' });

    for (const mode of ['online', 'offline'] as const) {
      online = mode === 'online';
      const refused = layer().update(serviceProvider, created.sp_Id, { sp_Name: `Mine ${mode}` }, [], { basedOn: openedOn });
      await expect(refused, mode).rejects.toBeInstanceOf(ConflictError);
      await expect(refused.catch((error: ConflictError) => error.server.sp_Name)).resolves.toBe('Edited elsewhere');
      expect(await layer().get(serviceProvider, created.sp_Id), mode).toMatchObject({ sp_Name: 'Edited elsewhere', syncState: 'synced' });
    }
    online = true;
    expect((await serverRow(`/sproviers/${created.sp_Id}`)).body.sp_Name).toBe('Edited elsewhere');

    // Based on the current version, the edit goes through.
    const current = await layer().get(serviceProvider, created.sp_Id);
    const saved = await layer().update(serviceProvider, created.sp_Id, { sp_Name: 'Mine' }, [], { basedOn: current?.updatedAt as string });
    expect(saved).toMatchObject({ sp_Name: 'Mine', syncState: 'synced' });
  });

  it('online: an edit based on an older version than the server holds is refused by the server even when this device never saw the newer one', async () => {
    const created = await layer().create(serviceProvider, values(serviceProvider));
    const other = await t.api('PUT', `/sproviers/${created.sp_Id}`, { token, body: { sp_Name: 'Edited elsewhere' } });
    expect(other.status).toBe(200);
    // The device still holds `created` (nothing pulled): only the server can tell.
    await collectionOf(db, serviceProvider).findOne(created.sp_Id).remove();
    await expect(
      layer().update(serviceProvider, created.sp_Id, { sp_Name: 'Mine' }, [], { basedOn: created.updatedAt as string }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect((await serverRow(`/sproviers/${created.sp_Id}`)).body.sp_Name).toBe('Edited elsewhere');
  });

  it('offline: a record this device does not hold cannot be edited', async () => {
    online = false;
    await expect(layer().update(serviceProvider, '01900000-0000-7000-8000-000000000001', { sp_Name: 'x' })).rejects.toThrow(
      /not available offline/,
    );
  });
});

describe('list', () => {
  it('online: the page is written as synced rows in the server order, and a pending document is never overwritten', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const body: Record<string, unknown> = { ...sampleBody(serviceProvider), sp_Name: `Listed ${i}`, territory: 7 };
      expect((await t.api('POST', '/sproviers/', { token, body })).status).toBe(201);
      keys.push(body.sp_Id as string);
    }
    await layer(windowUser()).list(serviceProvider, { filter: { territory: 7 } }); // mirror them
    online = false;
    await layer(windowUser()).update(serviceProvider, keys[1] as string, { sp_Name: 'Local edit' });
    online = true;

    const page = await layer(windowUser()).list(serviceProvider, { filter: { territory: 7 }, sort: 'sp_Name', dir: 'desc', pageSize: 10 });
    expect(page).toMatchObject({ total: 4, page: 1, pageSize: 10 });
    expect(page.rows.map((r) => r.sp_Id)).toEqual([...keys].reverse());
    const pending = page.rows.find((r) => r.sp_Id === keys[1]);
    expect(pending).toMatchObject({ syncState: 'pending', sp_Name: 'Local edit' });
    expect(page.rows.filter((r) => r.syncState === 'synced')).toHaveLength(3);
  });

  it('online: records saved on this device and not uploaded yet are on top of the first page, counted, and matched by the query', async () => {
    const body: Record<string, unknown> = { ...sampleBody(serviceProvider), sp_Name: 'Uploaded here', territory: 9 };
    expect((await t.api('POST', '/sproviers/', { token, body })).status).toBe(201);
    online = false;
    const waiting = await layer().create(serviceProvider, { ...values(serviceProvider), sp_Name: 'Waiting here', territory: 9 });
    await layer().create(serviceProvider, { ...values(serviceProvider), sp_Name: 'Elsewhere', territory: 8 });
    online = true;
    const first = await layer().list(serviceProvider, { filter: { territory: 9 }, pageSize: 10 });
    expect(first.total).toBe(2);
    expect(first.rows.map((r) => r.sp_Name)).toEqual(['Waiting here', 'Uploaded here']);
    expect(first.rows[0]).toMatchObject({ sp_Id: waiting.sp_Id, syncState: 'pending' });
    const searched = await layer().list(serviceProvider, { q: 'Waiting', pageSize: 10 });
    expect(searched.rows.map((r) => r.sp_Id)).toContain(waiting.sp_Id);
    const second = await layer().list(serviceProvider, { filter: { territory: 9 }, page: 2, pageSize: 10 });
    expect(second.rows).toEqual([]);
  });

  it('online: a row whose local copy was deleted (as after an upload) comes back as synced', async () => {
    const created = await layer().create(serviceProvider, values(serviceProvider));
    await (await collectionOf(db, serviceProvider).findOne(created.sp_Id).exec())?.remove();
    const page = await layer().list(serviceProvider, { q: created.sp_Name, pageSize: 200 });
    expect(page.rows.find((r) => r.sp_Id === created.sp_Id)).toMatchObject({ syncState: 'synced' });
  });

  it('online: an answer read before a newer version was stored does not put the older version back', async () => {
    const body: Record<string, unknown> = { ...sampleBody(serviceProvider), sp_Name: 'Before the edit', territory: 4 };
    expect((await t.api('POST', '/sproviers/', { token, body })).status).toBe(201);
    const key = body.sp_Id as string;
    // The first list answer is kept and handed out again later: an answer that was slow on its way.
    let kept: unknown;
    let replay = false;
    const interceptor = http.interceptors.response.use((response) => {
      if (replay) response.data = kept;
      else kept ??= response.data;
      return response;
    });
    try {
      await layer(windowUser()).list(serviceProvider, { filter: { territory: 4 }, pageSize: 10 });
      expect((await t.api('PUT', `/sproviers/${key}`, { token, body: { sp_Name: 'After the edit' } })).status).toBe(200);
      expect(await layer(windowUser()).get(serviceProvider, key)).toMatchObject({ sp_Name: 'After the edit', syncState: 'synced' });
      replay = true;
      await layer(windowUser()).list(serviceProvider, { filter: { territory: 4 }, pageSize: 10 });
    } finally {
      http.interceptors.response.eject(interceptor);
    }
    expect((await collectionOf(db, serviceProvider).findOne(key).exec())?.toJSON()).toMatchObject({
      sp_Name: 'After the edit',
      syncState: 'synced',
    });
  });

  it('offline: pages newest first, with filters, search and totals from RxDB', async () => {
    online = false;
    const made: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const doc = await layer().create(serviceProvider, {
        ...values(serviceProvider),
        sp_Name: `Provider ${i}`,
        territory: i % 3 === 0 ? 2 : 1,
      });
      made.push(doc.sp_Id);
    }
    const first = await layer().list(serviceProvider, { page: 1, pageSize: 5, sort: 'createdAt', dir: 'desc' });
    expect(first).toMatchObject({ total: 12, page: 1, pageSize: 5 });
    expect(first.rows.map((r) => r.sp_Id)).toEqual(made.slice(-5).reverse());
    const last = await layer().list(serviceProvider, { page: 3, pageSize: 5, sort: 'createdAt', dir: 'desc' });
    expect(last.rows.map((r) => r.sp_Id)).toEqual(made.slice(0, 2).reverse());

    const filtered = await layer().list(serviceProvider, { filter: { territory: 2 }, pageSize: 10 });
    expect(filtered.total).toBe(4);
    expect(filtered.rows.every((r) => r.territory === 2)).toBe(true);

    const searched = await layer().list(serviceProvider, { q: 'provider 1', pageSize: 10 });
    expect(searched.rows.map((r) => r.sp_Name).sort()).toEqual(['Provider 1', 'Provider 10', 'Provider 11']);
    expect(searched.total).toBe(3);
    expect((await layer().list(serviceProvider, { filter: { syncState: 'pending' } })).total).toBe(12);
  });
});

/** Every page `listPages` gives, and how it ended. */
type Page = ListResult<Record<string, unknown>>;

function watch(pages$: Observable<Page>) {
  const pages: Page[] = [];
  const ended = new Promise<void>((resolve, reject) =>
    pages$.subscribe({ next: (page) => pages.push(page), complete: resolve, error: reject }),
  );
  return { pages, ended };
}

function storeOpeningLater() {
  let open!: (store: IcrsDatabase) => void;
  let fail!: (error: Error) => void;
  const store = new Promise<IcrsDatabase>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { store, open, fail };
}

describe("a field worker's device (mirroring its caseload and directory by members)", () => {
  it('a client read online is shown, never kept; a provider it holds is refreshed by a page read online', async () => {
    // On the server, outside this device's store: the pull alone brings the caseload's members.
    const body: Record<string, unknown> = { ...sampleBody(profile), prof_Reg_No: registrationNumber('ICRS'), firstName: 'Outsider' };
    expect((await t.api('POST', '/profile/', { token, body })).status).toBe(201);
    const key = body.prof_Id as string;
    const page = await layer().list(profile, { q: 'Outsider', pageSize: 50 });
    expect(page.rows.map((r) => r.prof_Id)).toContain(key);
    expect(await layer().get(profile, key)).toMatchObject({ prof_Id: key, firstName: 'Outsider' });
    expect(await collectionOf(db, profile).findOne(key).exec()).toBeNull();
    // A window device (an office worker's) keeps what it reads.
    await layer(windowUser()).get(profile, key);
    expect((await collectionOf(db, profile).findOne(key).exec())?.syncState).toBe('synced');

    const held = await layer().create(serviceProvider, { ...values(serviceProvider), territory: 9 });
    expect((await t.api('PUT', `/sproviers/${held.sp_Id}`, { token, body: { sp_Name: 'Renamed on the server' } })).status).toBe(200);
    await layer().list(serviceProvider, { filter: { territory: 9 }, pageSize: 50 });
    expect((await collectionOf(db, serviceProvider).findOne(held.sp_Id).exec())?.sp_Name).toBe('Renamed on the server');
  });

  it("a save online keeps what the save makes the device's: a new client and its records, a record of a client held; a client not held stays on the server, edited or given a record", async () => {
    const body: Record<string, unknown> = { ...sampleBody(profile), prof_Reg_No: registrationNumber('ICRS'), firstName: 'Colleague' };
    expect((await t.api('POST', '/profile/', { token, body })).status).toBe(201);
    const away = body.prof_Id as string;
    const before = await layer().get(profile, away);

    const edited = await layer().update(profile, away, { firstName: 'Edited online' }, [], { basedOn: before?.updatedAt as string });
    expect(edited).toMatchObject({ prof_Id: away, firstName: 'Edited online', syncState: 'synced' });
    expect((await serverRow(`/profile/${away}`)).body).toMatchObject({ firstName: 'Edited online' });
    const skillsAway = await layer().create(skills, values(skills, { profile: away }));
    expect(skillsAway).toMatchObject({ prof_Id: away, syncState: 'synced' });
    expect((await serverRow(`/profile/skprofile/${away}`)).status).toBe(200);
    expect(await collectionOf(db, profile).findOne(away).exec()).toBeNull();
    expect(await collectionOf(db, skills).findOne(away).exec()).toBeNull();

    const own = await layer().create(profile, values(profile));
    expect((await collectionOf(db, profile).findOne(own.prof_Id).exec())?.syncState).toBe('synced');
    await layer().create(skills, values(skills, { profile: own.prof_Id }));
    expect((await collectionOf(db, skills).findOne(own.prof_Id).exec())?.syncState).toBe('synced');
    await layer().update(profile, own.prof_Id, { firstName: 'Own, edited' });
    expect((await collectionOf(db, profile).findOne(own.prof_Id).exec())?.firstName).toBe('Own, edited');
  });
});

describe('list while the store opens (a full page load of a list screen)', () => {
  /** Three providers of territory `territory` on the server, mirrored here; the first then edited
   * offline; one record saved offline; one saved offline whose upload reached the server and was
   * not settled here yet (a lost answer). */
  async function serverAndDevice(territory: number) {
    const keys: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const body: Record<string, unknown> = { ...sampleBody(serviceProvider), sp_Name: `Early ${i}`, territory };
      expect((await t.api('POST', '/sproviers/', { token, body })).status).toBe(201);
      keys.push(body.sp_Id as string);
    }
    await layer(windowUser()).list(serviceProvider, { filter: { territory } });
    online = false;
    await layer(windowUser()).update(serviceProvider, keys[0] as string, { sp_Name: 'Early 0 edited here' });
    const waiting = await layer(windowUser()).create(serviceProvider, { ...values(serviceProvider), sp_Name: 'Early waiting', territory });
    const uploaded = await layer(windowUser()).create(serviceProvider, {
      ...values(serviceProvider),
      sp_Name: 'Early uploaded',
      territory,
    });
    const body = { ...sampleBody(serviceProvider), sp_Id: uploaded.sp_Id, sp_Name: 'Early uploaded', territory };
    expect((await t.api('POST', '/sproviers/', { token, body })).status).toBe(201);
    online = true;
    return { keys, waiting: waiting.sp_Id, uploaded: uploaded.sp_Id };
  }

  it("online: the server's page is shown before the store is open; then this device's versions and unsent record join it, each once, and the page is stored", async () => {
    const { keys, waiting, uploaded } = await serverAndDevice(6);
    const opening = storeOpeningLater();
    const early = createDataLayer({ db: opening.store, http, isOnline: () => true, user: windowUser(), lists });
    const { pages, ended } = watch(
      early.listPages(serviceProvider, { filter: { territory: 6 }, sort: 'sp_Name', dir: 'asc', pageSize: 25 }),
    );
    await vi.waitFor(() => expect(pages).toHaveLength(1)); // the request did not wait for the store
    expect(pages[0]?.rows.map((r) => r.sp_Name)).toEqual(['Early 0', 'Early 1', 'Early 2', 'Early uploaded']);
    expect(pages[0]?.rows.every((r) => r.syncState === 'synced')).toBe(true);
    expect(pages[0]?.total).toBe(4);

    opening.open(db);
    await ended;
    expect(pages).toHaveLength(2);
    const shown = pages[1] as Page;
    expect(shown.rows.map((r) => r.sp_Id)).toEqual([waiting, ...keys, uploaded]);
    expect(shown.rows.map((r) => [r.sp_Name, r.syncState])).toEqual([
      ['Early waiting', 'pending'],
      ['Early 0 edited here', 'pending'],
      ['Early 1', 'synced'],
      ['Early 2', 'synced'],
      ['Early uploaded', 'pending'],
    ]);
    expect(shown.total).toBe(5);
    // Written after it was shown, never over a pending document.
    const stored = await collectionOf(db, serviceProvider)
      .findByIds([...keys, waiting, uploaded])
      .exec();
    expect([...keys, waiting, uploaded].map((key) => stored.get(key)?.syncState)).toEqual([
      'pending',
      'synced',
      'synced',
      'pending',
      'pending',
    ]);
    expect(stored.get(keys[0] as string)?.sp_Name).toBe('Early 0 edited here');

    // With the store open, the page is shown once, already whole.
    const again = watch(early.listPages(serviceProvider, { filter: { territory: 6 }, sort: 'sp_Name', dir: 'asc', pageSize: 25 }));
    await again.ended;
    expect(again.pages.map((page) => page.rows.map((r) => r.sp_Id))).toEqual([[waiting, ...keys, uploaded]]);
  });

  it('offline: the list waits for the store and answers its page once', async () => {
    const { keys, waiting, uploaded } = await serverAndDevice(5);
    online = false;
    const opening = storeOpeningLater();
    const early = createDataLayer({ db: opening.store, http, isOnline: () => online, user: windowUser(), lists });
    const { pages, ended } = watch(
      early.listPages(serviceProvider, { filter: { territory: 5 }, sort: 'sp_Name', dir: 'asc', pageSize: 25 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pages).toEqual([]);
    opening.open(db);
    await ended;
    expect(pages.map((page) => page.rows.map((r) => r.sp_Id))).toEqual([[keys[0], keys[1], keys[2], uploaded, waiting]]);
  });

  it("offline: the list reads its own collection as soon as the opening has set it up, before the store's others are", async () => {
    const { keys, waiting, uploaded } = await serverAndDevice(3);
    online = false;
    const opening = storeOpeningLater();
    const setUp = storeOpeningLater(); // the list's collection, told by the opening's first step
    const early = createDataLayer({
      db: opening.store,
      collection: (entity) => setUp.store.then((store) => collectionOf(store, entity)),
      http,
      isOnline: () => online,
      user: windowUser(),
      lists,
    });
    const { pages, ended } = watch(
      early.listPages(serviceProvider, { filter: { territory: 3 }, sort: 'sp_Name', dir: 'asc', pageSize: 25 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pages).toEqual([]);
    setUp.open(db); // the whole store is still opening
    await ended;
    expect(pages.map((page) => page.rows.map((r) => r.sp_Id))).toEqual([[keys[0], keys[1], keys[2], uploaded, waiting]]);
  });

  it("online: a store that cannot open fails the list after the server's page was shown; other calls fail with it", async () => {
    const opening = storeOpeningLater();
    const early = createDataLayer({ db: opening.store, http, isOnline: () => true, user: fieldUser, lists });
    const { pages, ended } = watch(early.listPages(serviceProvider, { pageSize: 25 }));
    await vi.waitFor(() => expect(pages).toHaveLength(1));
    opening.fail(new Error('no IndexedDB'));
    await expect(ended).rejects.toThrow('no IndexedDB');
    await expect(early.get(serviceProvider, 'anything')).rejects.toThrow('no IndexedDB');
  });
});

describe('a list page asked before its screen is drawn (prefetch.ts)', () => {
  const query = { q: 'Prefetched', filter: { territory: 7 }, sort: 'sp_Name', dir: 'asc' as const, page: 1, pageSize: 25 };
  let asked: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    vi.stubGlobal('window', new EventTarget()); // the change stream's events (src/lib/util/events.ts)
    asked = vi.spyOn(http, 'post');
  });
  afterEach(() => {
    asked.mockRestore();
    vi.unstubAllGlobals();
  });

  const listCalls = () => asked.mock.calls.filter((call: unknown[]) => String(call[0]).includes('/srch')).length;

  it("is the grid's request: taken once, with this device's unsent record merged and the page stored", async () => {
    const body: Record<string, unknown> = { ...sampleBody(serviceProvider), sp_Name: 'Prefetched A', territory: 7 };
    expect((await t.api('POST', '/sproviers/', { token, body })).status).toBe(201);
    online = false;
    const waiting = await layer(windowUser()).create(serviceProvider, {
      ...values(serviceProvider),
      sp_Name: 'Prefetched waiting',
      territory: 7,
    });
    online = true;

    await prefetchPage(http, serviceProvider, query);
    expect(listCalls()).toBe(1);
    const page = await layer(windowUser()).list(serviceProvider, { ...query });
    expect(listCalls()).toBe(1); // taken, not asked again
    expect(page.rows.map((r) => [r.sp_Name, r.syncState])).toEqual([
      ['Prefetched waiting', 'pending'],
      ['Prefetched A', 'synced'],
    ]);
    expect(page.total).toBe(2);
    expect(
      (
        await collectionOf(db, serviceProvider)
          .findOne(body.sp_Id as string)
          .exec()
      )?.syncState,
    ).toBe('synced');
    expect(waiting.syncState).toBe('pending');

    await layer(windowUser()).list(serviceProvider, { ...query }); // once only: the next list asks afresh
    expect(listCalls()).toBe(2);
  });

  it("its answer is the first page drawn while the store opens: the same page object the list then shows, with this device's records after it", async () => {
    const query = { q: 'Drawn', filter: { territory: 8 }, sort: 'sp_Name', dir: 'asc' as const, page: 1, pageSize: 25 };
    const body: Record<string, unknown> = { ...sampleBody(serviceProvider), sp_Name: 'Drawn first', territory: 8 };
    expect((await t.api('POST', '/sproviers/', { token, body })).status).toBe(201);
    online = false;
    await layer().create(serviceProvider, { ...values(serviceProvider), sp_Name: 'Drawn unsent', territory: 8 });
    online = true;
    const opening = storeOpeningLater();
    const early = createDataLayer({ db: opening.store, http, isOnline: () => true, user: fieldUser, lists });

    expect(early.firstPage(serviceProvider, query)).toBeUndefined(); // nothing asked ahead
    const answer = prefetchPage(http, serviceProvider, query);
    expect(early.firstPage(serviceProvider, query)).toBeUndefined(); // asked, not answered yet
    await answer;
    const first = early.firstPage(serviceProvider, query);
    expect(first?.rows.map((r) => [r.sp_Name, r.syncState])).toEqual([['Drawn first', 'synced']]);
    expect(early.firstPage(serviceProvider, { ...query, page: 2 })).toBeUndefined(); // another query

    const { pages, ended } = watch(early.listPages(serviceProvider, query));
    await vi.waitFor(() => expect(pages).toHaveLength(1));
    expect(pages[0]?.rows).toBe(first?.rows); // nothing new to draw
    expect(listCalls()).toBe(1); // the answer drawn first was the list's request
    expect(early.firstPage(serviceProvider, query)).toBeUndefined(); // taken
    opening.open(db);
    await ended;
    expect(pages[1]?.rows.map((r) => r.sp_Name)).toEqual(['Drawn unsent', 'Drawn first']);

    // With the store open the device's records are read first: nothing is drawn ahead of them.
    await prefetchPage(http, serviceProvider, query);
    expect(early.firstPage(serviceProvider, query)).toBeUndefined();
  });

  it('is not taken for another query, through another client, or after the stream named its table', async () => {
    void prefetchPage(http, serviceProvider, query);
    await layer().list(serviceProvider, { ...query, page: 2 });
    expect(listCalls()).toBe(2);

    const other = axios.create({ baseURL: http.defaults.baseURL, headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'en' } });
    await layer(fieldUser, lists, other).list(serviceProvider, { ...query });
    expect(listCalls()).toBe(2); // the other client asked for itself (not counted here)

    await layer().list(serviceProvider, { ...query }); // still waiting for this client: taken
    expect(listCalls()).toBe(2);

    void prefetchPage(http, serviceProvider, query);
    emitServerChange('tbl_sp_detail'); // another table: still good
    void prefetchPage(http, job, {});
    emitServerChange(serviceProvider.table); // a change the answer may predate
    await layer().list(serviceProvider, { ...query });
    expect(listCalls()).toBe(4);
    emitServerChange('*');
    await layer().list(job, {});
    expect(asked.mock.calls.filter((call: unknown[]) => String(call[0]).includes('/jobs/search')).length).toBe(2);
  });
});

describe("an offline list's first page read from the store ahead of its screen (localList.ts)", () => {
  it("is the first page drawn offline, taken once for exactly its query, and the list still reads the store's current page", async () => {
    online = false;
    const query = { q: 'Ahead', filter: { territory: 9 }, sort: 'sp_Name', dir: 'asc' as const, page: 1, pageSize: 25 };
    await layer().create(serviceProvider, { ...values(serviceProvider), sp_Name: 'Ahead A', territory: 9 });
    const offline = layer();
    expect(offline.firstPage(serviceProvider, query)).toBeUndefined(); // nothing read ahead

    await readFirstPageAhead(collectionOf(db, serviceProvider), serviceProvider, query);
    expect(offline.firstPage(serviceProvider, { ...query, page: 2 })).toBeUndefined(); // another query
    // Saved after the read ahead: the first render shows the page read, the list then the current one.
    await offline.create(serviceProvider, { ...values(serviceProvider), sp_Name: 'Ahead B', territory: 9 });
    const first = offline.firstPage(serviceProvider, query);
    expect(first?.rows.map((r) => r.sp_Name)).toEqual(['Ahead A']);
    expect(first?.total).toBe(1);
    expect(offline.firstPage(serviceProvider, query)).toBeUndefined(); // taken

    const page = await offline.list(serviceProvider, query);
    expect(page.rows.map((r) => r.sp_Name)).toEqual(['Ahead A', 'Ahead B']);

    // Online a list reads the server: a page read from the store ahead is not what it draws.
    await readFirstPageAhead(collectionOf(db, serviceProvider), serviceProvider, query);
    online = true;
    expect(layer().firstPage(serviceProvider, query)).toBeUndefined();
  });
});

describe('registration numbers', () => {
  it('a new profile gets the organisation abbreviation and 8 of A-Z0-9', async () => {
    online = false;
    const doc = await layer().create(profile, values(profile));
    expect(isRegistrationNumber(doc.prof_Reg_No, 'ICRS')).toBe(true);
    online = true;
    const stored = await layer().create(profile, values(profile));
    expect(isRegistrationNumber(stored.prof_Reg_No, 'ICRS')).toBe(true);
    expect((await serverRow(`/profile/${stored.prof_Id}`)).body.prof_Reg_No).toBe(stored.prof_Reg_No);
  });

  it("without an abbreviation: 'Error Saving Super admin cannot create', online and offline", async () => {
    const superAdmin: SessionUser = { ...fieldUser, location: 0 };
    for (const mode of [false, true]) {
      online = mode;
      await expect(layer(superAdmin).create(profile, values(profile))).rejects.toThrow(new Error(SUPER_ADMIN_CANNOT_CREATE));
    }
    online = false;
    await expect(layer(fieldUser, null).create(profile, values(profile))).rejects.toThrow(SUPER_ADMIN_CANNOT_CREATE);
    expect(await collectionOf(db, profile).count().exec()).toBe(0);
  });
});

describe('images', () => {
  it('offline: job images wait in files, profile images in tbl_profiles_images, as base64', async () => {
    online = false;
    const jobDoc = await layer().create(job, values(job), [{ slot: 'jb_img2', blob: png(), name: 'front.png' }]);
    const files = await collectionOf(db, file).find().exec();
    expect(files.map((d) => d.toJSON())).toEqual([
      expect.objectContaining({
        srcId: jobDoc.jb_Id,
        srcTable: 'available-jobs',
        imgNo: 2,
        name: 'front.png',
        type: 'image/png',
        size: PNG_1PX.length,
        data: PNG_1PX.toString('base64'),
      }),
    ]);

    const person = await layer().create(profile, values(profile), [{ slot: 'photo', blob: png() }]);
    const images = await collectionOf(db, profileImage).find().exec();
    expect(images.map((d) => d.toJSON())).toEqual([
      expect.objectContaining({
        prof_Id: person.prof_Id,
        img_for: 'photo',
        type: 'image/png',
        data: PNG_1PX.toString('base64'),
        syncState: 'pending',
        syncOp: 'create',
      }),
    ]);
  });

  it('a file of the wrong kind or slot is refused before anything is stored', async () => {
    online = false;
    const text = new Blob(['hello'], { type: 'text/plain' });
    await expect(layer().create(job, values(job), [{ slot: 'jb_img1', blob: text }])).rejects.toThrow(/type not accepted/);
    await expect(layer().create(job, values(job), [{ slot: 'sp_img1', blob: png() }])).rejects.toThrow(/no image slot/);
    expect(await collectionOf(db, job).count().exec()).toBe(0);
  });

  it('online: images are stored on the server with their record', async () => {
    const jobDoc = await layer().create(job, values(job), [{ slot: 'jb_img1', blob: png(), name: 'a.png' }]);
    expect(jobDoc.jb_img1).toBeTruthy();
    const image = await fetch(`${t.url}/api/imgs/getById?id=${jobDoc.jb_Id}&imagename=${jobDoc.jb_img1}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG_1PX);

    const person = await layer().create(profile, values(profile), [{ slot: 'photo', blob: png(), name: 'me.png' }]);
    const photo = await fetch(`${t.url}/api/imgs/getfile?id=${person.prof_Id}&filename=photo`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(photo.status).toBe(200);
    expect(Buffer.from(await photo.arrayBuffer())).toEqual(PNG_1PX);
    const local = await collectionOf(db, profileImage).findOne(`${person.prof_Id}|photo`).exec();
    expect(local?.toJSON()).toMatchObject({ syncState: 'synced', name: 'me.png', data: '' });
  });
});

describe('get, remove, observe', () => {
  it('get: online refreshes the local copy, offline answers it, unknown is null', async () => {
    const created = await layer().create(serviceProvider, values(serviceProvider));
    await t.api('PUT', `/sproviers/${created.sp_Id}`, { token, body: { sp_Name: 'Changed on server' } });
    online = false;
    expect(await layer().get(serviceProvider, created.sp_Id)).toMatchObject({ sp_Name: created.sp_Name });
    online = true;
    expect(await layer().get(serviceProvider, created.sp_Id)).toMatchObject({ sp_Name: 'Changed on server' });
    expect(await layer().get(serviceProvider, '01900000-0000-7000-8000-000000000002')).toBeNull();
  });

  it('remove: soft delete online; offline only a record never uploaded can go', async () => {
    const created = await layer().create(serviceProvider, values(serviceProvider));
    online = false;
    await expect(layer().remove(serviceProvider, created.sp_Id, { reason: 'closed', password: PASSWORD })).rejects.toThrow(
      /needs a connection/,
    );
    const draft = await layer().create(job, values(job), [{ slot: 'jb_img1', blob: png() }]);
    await layer().remove(job, draft.jb_Id);
    expect(await layer().get(job, draft.jb_Id)).toBeNull();
    expect(await collectionOf(db, file).count().exec()).toBe(0);

    online = true;
    await layer().remove(serviceProvider, created.sp_Id, { reason: 'closed down', password: PASSWORD });
    expect((await serverRow(`/sproviers/${created.sp_Id}`)).status).toBe(404);
    expect(await collectionOf(db, serviceProvider).findOne(created.sp_Id).exec()).toBeNull();
  });

  it('observe and count$ are live RxDB queries', async () => {
    online = false;
    const data = layer();
    const counts: number[] = [];
    const subscription = data.count$(serviceProvider, { syncState: 'pending' }).subscribe((n) => counts.push(n));
    const seen = firstValueFrom(
      data.observe(serviceProvider, { selector: { sp_Name: 'Live one' } }).pipe(filter((docs) => docs.length > 0)),
    );
    await data.create(serviceProvider, { ...values(serviceProvider), sp_Name: 'Live one' });
    expect((await seen)[0]).toMatchObject({ sp_Name: 'Live one', syncState: 'pending' });
    await firstValueFrom(data.count$(serviceProvider, { syncState: 'pending' }).pipe(filter((n) => n === 1)));
    subscription.unsubscribe();
    expect(counts[0]).toBe(0);
    expect(counts.at(-1)).toBe(1);
  });
});

describe('createMany', () => {
  const named = (entity: EntityShape, names: string[], field: string) => names.map((name) => ({ ...values(entity), [field]: name }));
  const docsOf = <D>(results: CreateResult<D>[]): D[] =>
    results.map((r) => {
      if (!r.ok) throw r.error;
      return r.doc;
    });

  it('offline: every record pending with its device key, profiles with distinct registration numbers, in the order given', async () => {
    online = false;
    const names = Array.from({ length: 40 }, (_, i) => `Many ${i}`);
    const docs = docsOf(await layer().createMany(profile, named(profile, names, 'firstName')));
    expect(docs.map((d) => d.firstName)).toEqual(names);
    for (const doc of docs) {
      expect(doc).toMatchObject({ syncState: 'pending', syncOp: 'create', syncAttempts: 0, location: 1 });
      expect(doc.prof_Id).toMatch(UUID);
      expect(isRegistrationNumber(doc.prof_Reg_No, 'ICRS')).toBe(true);
    }
    expect(new Set(docs.map((d) => d.prof_Id)).size).toBe(40);
    expect(new Set(docs.map((d) => d.prof_Reg_No)).size).toBe(40);
    expect(
      await collectionOf(db, profile)
        .count({ selector: { syncState: 'pending' } })
        .exec(),
    ).toBe(40);
    // Made within a few milliseconds, they still list newest first, the last one given on top.
    const listed = await layer().list(profile, { pageSize: 40, sort: 'createdAt', dir: 'desc' });
    expect(listed.rows.map((r) => r.firstName)).toEqual([...names].reverse());
  });

  it('offline: a document of the same shape as one create stores', async () => {
    online = false;
    const one = await layer().create(serviceProvider, values(serviceProvider));
    const [many] = docsOf(await layer().createMany(serviceProvider, [values(serviceProvider)]));
    const shape = (doc: object) =>
      Object.keys(doc)
        .filter((k) => !k.startsWith('_'))
        .sort();
    expect(shape(many as object)).toEqual(shape(one));
  });

  it('offline: a record without its required key fails alone', async () => {
    online = false;
    const owners = docsOf(await layer().createMany(profile, [values(profile), values(profile)]));
    const results = await layer().createMany(skills, [
      { prof_Id: owners[0]?.prof_Id, diploma: 'A' },
      { diploma: 'No owner' },
      { prof_Id: owners[1]?.prof_Id, diploma: 'B' },
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
    expect(!results[1]?.ok && results[1]?.error.message).toBe('tbl_skills: prof_Id is required');
    expect(await collectionOf(db, skills).count().exec()).toBe(2);
  });

  it('offline: a key already stored, or twice in the call, fails that record alone and nothing is doubled', async () => {
    online = false;
    const existing = await layer().create(serviceProvider, { ...values(serviceProvider), sp_Name: 'Kept' });
    const fresh = docsOf(await layer().createMany(serviceProvider, [values(serviceProvider)]))[0];
    const results = await layer().createMany(serviceProvider, [
      { ...values(serviceProvider), sp_Name: 'New one' },
      { ...values(serviceProvider), sp_Id: existing.sp_Id, sp_Name: 'Overwrite?' },
      { ...values(serviceProvider), sp_Id: fresh?.sp_Id, sp_Name: 'Overwrite too?' },
    ]);
    expect(results.map((r) => (r.ok ? r.doc.sp_Name : r.error.message))).toEqual(['New one', 'duplicate entry', 'duplicate entry']);
    const twice = uuidv7();
    const again = await layer().createMany(serviceProvider, [
      { ...values(serviceProvider), sp_Id: twice },
      { ...values(serviceProvider), sp_Id: twice },
    ]);
    expect(again.map((r) => r.ok)).toEqual([true, false]);
    expect((await layer().get(serviceProvider, existing.sp_Id))?.sp_Name).toBe('Kept');
    expect(await collectionOf(db, serviceProvider).count().exec()).toBe(4);
  });

  it('offline: a profile sub-record already stored is edited, as create edits it', async () => {
    online = false;
    const [a, b] = docsOf(await layer().createMany(profile, [values(profile), values(profile)]));
    await layer().create(skills, { prof_Id: a?.prof_Id, diploma: 'First', languages: 'fr' });
    const results = docsOf(
      await layer().createMany(skills, [
        { prof_Id: a?.prof_Id, diploma: 'Second' },
        { prof_Id: b?.prof_Id, diploma: 'New' },
      ]),
    );
    expect(results[0]).toMatchObject({ prof_Id: a?.prof_Id, diploma: 'Second', languages: 'fr', syncOp: 'create' });
    expect(results[1]).toMatchObject({ prof_Id: b?.prof_Id, diploma: 'New', syncOp: 'create' });
    expect(await collectionOf(db, skills).count().exec()).toBe(2);
  });

  it('online: each record on the server and kept as synced; a bad one fails alone; without a network the rest wait as pending', async () => {
    const results = await layer().createMany(serviceProvider, [values(serviceProvider), { ...values(serviceProvider), sp_Name: '' }]);
    expect(results[0]).toMatchObject({ ok: true, doc: { syncState: 'synced' } });
    expect(results[1]?.ok).toBe(false);
    const stored = results[0]?.ok ? results[0].doc : undefined;
    expect((await serverRow(`/sproviers/${stored?.sp_Id}`)).status).toBe(200);
    const dead = axios.create({ baseURL: 'http://127.0.0.1:9/api' });
    const offline = docsOf(
      await layer(fieldUser, lists, dead).createMany(serviceProvider, [values(serviceProvider), values(serviceProvider)]),
    );
    expect(offline.map((d) => d.syncState)).toEqual(['pending', 'pending']);
  });

  it('the upload engine uploads records stored this way, each once', async () => {
    online = false;
    const providers = docsOf(await layer().createMany(serviceProvider, [values(serviceProvider), values(serviceProvider)]));
    const profiles = docsOf(await layer().createMany(profile, [values(profile), values(profile)]));
    docsOf(
      await layer().createMany(
        skills,
        profiles.map((p) => ({ prof_Id: p.prof_Id, diploma: 'Uploaded' })),
      ),
    );
    const report = await uploadAll({ db, http, notify: vi.fn(), isConnected: () => true });
    expect(report).toMatchObject({ total: 6, uploaded: 6 });
    expect(await countPending(db)).toBe(0);
    for (const p of providers) expect((await serverRow(`/sproviers/${p.sp_Id}`)).body.sp_Name).toBe(p.sp_Name);
    for (const p of profiles) {
      expect((await serverRow(`/profile/${p.prof_Id}`)).body.prof_Reg_No).toBe(p.prof_Reg_No);
      expect((await serverRow(`/profile/skprofile/${p.prof_Id}`)).body.diploma).toBe('Uploaded');
    }
  });
});
