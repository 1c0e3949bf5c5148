// The store of versions before the sealed store (ADR-0020; one `icrs_db` for all users, in clear): its pending
// records go to the user who collected them, sealed in their own store, at that user's sign-in;
// another user takes nothing; the old store is then removed (src/lib/store/legacyStore.ts).
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { profile } from '../../schemas/index';
import { collectionOf, type IcrsDatabase } from '../../src/lib/store/database';
import { adoptLegacyStore } from '../../src/lib/store/legacyStore';
import { localClientDoc } from '../helpers/pending';
import { openTestDb } from '../helpers/rxdb';

const LEGACY = 'rxdb-dexie-icrs_db--0--tbl_profiles';
let db: IcrsDatabase | undefined;
let storage: Map<string, string>;

beforeEach(() => {
  storage = new Map();
  vi.stubGlobal('indexedDB', indexedDB);
  vi.stubGlobal('IDBKeyRange', IDBKeyRange);
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => storage.set(k, v),
    removeItem: (k: string) => storage.delete(k),
  });
});
afterEach(async () => {
  await db?.close();
  db = undefined;
  vi.unstubAllGlobals();
});

function row(syncState: 'pending' | 'synced', lastName: string) {
  return localClientDoc({ lastName, syncState, _deleted: '0', _rev: '1-a', _meta: { lwt: 1 }, _attachments: {} }, 'ADC');
}

async function writeLegacy(rows: Record<string, unknown>[]): Promise<void> {
  const open = indexedDB.open(LEGACY, 1);
  open.onupgradeneeded = () => open.result.createObjectStore('docs', { keyPath: 'prof_Id' });
  const database = await new Promise<IDBDatabase>((resolve) => (open.onsuccess = () => resolve(open.result)));
  const tx = database.transaction('docs', 'readwrite');
  for (const r of rows) tx.objectStore('docs').put(r);
  await new Promise((resolve) => (tx.oncomplete = resolve));
  database.close();
}

const legacyExists = async () => (await indexedDB.databases()).some((d) => d.name === LEGACY);

describe("the previous version's shared store", () => {
  it('gives its pending records to the user who collected them, sealed in their store, and goes', async () => {
    const pending = row('pending', 'Oldversionova');
    await writeLegacy([pending, row('synced', 'Mirroredonly')]);
    storage.set('icrs.unsent', JSON.stringify({ userId: 'collector', userName: 'field4', count: 1 }));
    db = await openTestDb();

    expect(await adoptLegacyStore(db, 'someone-else')).toBe(0);
    expect(await legacyExists()).toBe(true);

    expect(await adoptLegacyStore(db, 'collector')).toBe(1);
    const docs = await collectionOf(db, profile).find().exec();
    expect(docs.map((d) => [d.get('lastName'), d.get('syncState')])).toEqual([['Oldversionova', 'pending']]);
    expect(await legacyExists()).toBe(false);
    expect(storage.has('icrs.unsent')).toBe(false);
  });
});
