// The device's store never waits forever (docs/adr/0046-store-never-waits-forever.md "The device's store never waits
// forever", src/lib/store/bounds.ts): a write, a read or an opening that IndexedDB never answers
// fails within its bound with the store's timeout error, nothing written before is lost, and a
// change event whose opening never settles holds no later write. The real Dexie storage over
// fake-indexeddb, under a wrapper that makes its calls hang on demand (fake-indexeddb, like
// every IndexedDB, always answers: the hang WebKit showed cannot be had from it otherwise).
import { Subject, merge } from 'rxjs';
import type { EventBulk, RxStorage, RxStorageChangeEvent, RxStorageInstance } from 'rxdb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { profile } from '../../schemas/index';
import { isStoreTimeout, STORE_OPEN_BOUND_MS, STORE_READ_BOUND_MS, StoreTimeoutError } from '../../src/lib/store/bounds';
import { collectionName, storeNameFor } from '../../src/lib/store/collections';
import { removeMirror } from '../../src/lib/store/deviceData';
import { collectionOf, createIcrsDb, type IcrsDatabase } from '../../src/lib/store/database';
import { vaultSealer } from '../../src/lib/vault/vault';
import { localClientDoc } from '../helpers/pending';
import { fakeIndexedDbStorage, openTestVault } from '../helpers/rxdb';

type AnyInstance = RxStorageInstance<Record<string, unknown>, unknown, unknown, unknown>;
type Events = EventBulk<RxStorageChangeEvent<Record<string, unknown>>, unknown>;

const never = () => new Promise<never>(() => undefined);

/** Fake-indexeddb's Dexie storage, whose calls hang while `hang` names them, and whose change
 * streams also carry the events given to `inject` (as another tab's writes arrive). */
function hangingStorage() {
  const base = fakeIndexedDbStorage();
  const hang = { write: false, read: false, open: false };
  const injected = new Map<string, Subject<Events>>();
  const storage: RxStorage<unknown, unknown> = {
    name: base.name,
    rxdbVersion: base.rxdbVersion,
    async createStorageInstance(params) {
      if (hang.open) return never();
      const instance = (await base.createStorageInstance(params)) as unknown as AnyInstance;
      const bulkWrite = instance.bulkWrite.bind(instance);
      instance.bulkWrite = (rows, context) => (hang.write ? never() : bulkWrite(rows, context));
      const query = instance.query.bind(instance);
      instance.query = (prepared) => (hang.read ? never() : query(prepared));
      const extra = new Subject<Events>();
      injected.set(params.collectionName, extra);
      const changes = instance.changeStream.bind(instance);
      instance.changeStream = () => merge(changes(), extra) as ReturnType<AnyInstance['changeStream']>;
      return instance as never;
    },
  };
  return { storage, hang, inject: (collection: string, bulk: Events) => injected.get(collection)!.next(bulk) };
}

const BOUNDS = { writeMs: 600, readMs: 600, openMs: 1_500, eventOpenMs: 150 };
let counter = 0;
const opened: IcrsDatabase[] = [];

async function openStore(storage: RxStorage<unknown, unknown>, name = `icrs_bounds_${process.pid}_${++counter}`) {
  await openTestVault();
  const db = await createIcrsDb({ storage, name, bounds: BOUNDS, sealer: vaultSealer });
  opened.push(db);
  return { db, name };
}

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map((db) => db.close().catch(() => undefined)));
});

function client(lastName: string) {
  return localClientDoc({ firstName: 'Amina', lastName, sex: 'F', birthDate: '1990-01-01', territory: 1 });
}

/** The error `work` rejects with, and how long it took. */
async function failure(work: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    await work;
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  throw new Error('expected a failure');
}

describe('bounds of the device store', () => {
  it('fails a save IndexedDB never answers within its bound, keeps what was saved before, and saves again once it answers', async () => {
    const { storage, hang } = hangingStorage();
    const { db, name } = await openStore(storage);
    const clients = collectionOf(db, profile);
    const before = client('Before');
    await clients.insert(before);

    hang.write = true;
    const stuck = client('Stuck');
    const { error, ms } = await failure(clients.insert(stuck));
    expect(isStoreTimeout(error)).toBe(true);
    expect(ms).toBeLessThan(BOUNDS.writeMs + 1_000);

    hang.write = false;
    const after = client('After');
    await clients.insert(after);
    await db.close();
    // Opened again (a reload): what was saved before the hang and after it is there.
    const again = (await openStore(storage, name)).db;
    const kept = await collectionOf(again, profile).find().exec();
    expect(kept.map((doc) => doc.get('lastName')).sort()).toEqual(['After', 'Before']);
  });

  it('fails a read IndexedDB never answers within its bound', async () => {
    const { storage, hang } = hangingStorage();
    const { db } = await openStore(storage);
    await collectionOf(db, profile).insert(client('Read'));
    hang.read = true;
    const read = await failure(
      collectionOf(db, profile)
        .find({ selector: { syncState: 'pending' } })
        .exec(),
    );
    expect(isStoreTimeout(read.error)).toBe(true);
    expect(read.ms).toBeLessThan(BOUNDS.readMs + 1_000);
  });

  it('fails an opening IndexedDB never answers within its bound, with the opening error', async () => {
    const { storage, hang } = hangingStorage();
    hang.open = true;
    const { error, ms } = await failure(openStore(storage));
    expect(error).toBeInstanceOf(StoreTimeoutError);
    expect((error as StoreTimeoutError).step).toBe('open');
    expect(ms).toBeLessThan(BOUNDS.openMs + 1_000);
  });

  it('lets a client be saved while another tab’s change that cannot be opened is dropped, not waited on for good', async () => {
    const { storage, inject } = hangingStorage();
    const { db } = await openStore(storage);
    const clients = collectionOf(db, profile);
    await clients.insert(client('First'));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // A change from another tab, whose decryption never settles (WebCrypto never answering).
    vi.spyOn(crypto.subtle, 'decrypt').mockImplementation(never);
    const foreign = {
      ...client('Foreign'),
      sealed: 'AAAAAAAAAAAAAAAAAAAAAAAA',
      _deleted: false,
      _rev: '1-x',
      _attachments: {},
      _meta: { lwt: Date.now() },
    };
    inject(collectionName(profile), {
      id: 'other-tab',
      context: 'other-tab',
      checkpoint: null,
      events: [{ documentId: foreign.prof_Id, operation: 'INSERT', documentData: foreign, previousDocumentData: undefined }],
    } as unknown as Events);

    await clients.insert(client('Second'));
    expect(logged).toHaveBeenCalledWith('A change of a sealed collection could not be opened:', expect.any(StoreTimeoutError));
    vi.mocked(crypto.subtle.decrypt).mockRestore();
    await clients.insert(client('Third'));
    expect((await clients.find().exec()).map((doc) => doc.get('lastName')).sort()).toEqual(['First', 'Second', 'Third']);
  });
});

describe('bounds of the calls made to IndexedDB directly (below RxDB)', () => {
  /** A request whose handlers are set and never called, as a transaction that never completes. */
  const silent = () => ({}) as IDBOpenDBRequest;

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('fails the removal of a mirror whose database never opens, with the opening error', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const name = `rxdb-dexie-${storeNameFor('user-1')}--0--profile`;
    vi.stubGlobal('indexedDB', { databases: async () => [{ name, version: 1 }], open: silent });
    const removing = removeMirror('user-1');
    const failed = expect(removing).rejects.toMatchObject({ name: 'StoreTimeoutError', step: 'open' });
    await vi.advanceTimersByTimeAsync(STORE_OPEN_BOUND_MS + 1);
    await failed;
  });

  it('fails a list of databases that never comes, with the read error', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubGlobal('indexedDB', { databases: () => new Promise(() => undefined), open: silent });
    const removing = removeMirror('user-1');
    const failed = expect(removing).rejects.toMatchObject({ name: 'StoreTimeoutError', step: 'read' });
    await vi.advanceTimersByTimeAsync(STORE_READ_BOUND_MS + 1);
    await failed;
  });
});
