// A user's store on this device, handled below RxDB and without its key (ADR-0020): removed
// whole ("Remove my data from this device"), or emptied of its mirror while its pending records
// stay (a deactivated account: what the server holds goes, what only the device holds waits,
// sealed, until the account may upload again). RxDB's Dexie storage keeps each collection in an
// IndexedDB database `rxdb-dexie-<store>--<version>--<collection>` whose table `docs` holds the
// documents, `syncState` in clear (sealedStorage.ts), so neither needs the vault open. Call them
// while the store is closed (before it opens, or before a reload).
import { STORE_OPEN_BOUND_MS, STORE_READ_BOUND_MS, STORE_WRITE_BOUND_MS, withinBound, type StoreStep } from './bounds';
import { storeNameFor } from './collections';

const DOCS = 'docs';

/** The bound of each kind of call (bounds.ts): these calls go to IndexedDB directly, below RxDB
 * and its bounded storage, so they carry their own. */
const BOUND_OF: Record<StoreStep, number> = { open: STORE_OPEN_BOUND_MS, read: STORE_READ_BOUND_MS, write: STORE_WRITE_BOUND_MS };

export async function databaseNames(): Promise<string[]> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return [];
  return (await withinBound(indexedDB.databases(), BOUND_OF.read, 'read')).map((info) => info.name ?? '').filter(Boolean);
}

/** The IndexedDB databases of the user's store. */
export async function storeDatabases(userId: string): Promise<string[]> {
  const prefix = `rxdb-dexie-${storeNameFor(userId)}--`;
  return (await databaseNames()).filter((name) => name.startsWith(prefix));
}

/** An IndexedDB request's answer, or StoreTimeoutError past the bound of its `step`. */
export function request<T>(req: IDBRequest<T>, step: StoreStep = 'read'): Promise<T> {
  const answer = new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  return withinBound(answer, BOUND_OF[step], step);
}

/** A database opened directly (no upgrade: the database is RxDB's). */
export function openDatabase(name: string): Promise<IDBDatabase> {
  return request(indexedDB.open(name), 'open');
}

export function deleteDatabase(name: string): Promise<void> {
  const deleted = new Promise<void>((resolve, reject) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error);
    req.onblocked = () => resolve(); // removed once the last connection closes
  });
  return withinBound(deleted, BOUND_OF.write, 'write');
}

/** Removes the user's whole store from this device. */
export async function removeStore(userId: string): Promise<void> {
  await Promise.all((await storeDatabases(userId)).map(deleteDatabase));
}

/** Removes the user's mirrored records (synced copies of the server's) and the pull's place in
 * the feeds, keeping every pending record as it is. Answers how many records were removed. */
export async function removeMirror(userId: string): Promise<number> {
  let removed = 0;
  for (const name of await storeDatabases(userId)) {
    const db = await openDatabase(name);
    try {
      if (!db.objectStoreNames.contains(DOCS)) continue;
      const store = db.transaction(DOCS, 'readwrite').objectStore(DOCS);
      const rows = await request(store.getAll());
      const keys = await request(store.getAllKeys());
      const done = rows.map((row, i) => {
        const doc = row as { syncState?: unknown; id?: unknown };
        // The pull's checkpoints and owed keys (local documents) go too: the mirror starts again.
        const local = name.includes('plugin-local-documents');
        if (!local && doc.syncState !== 'synced') return Promise.resolve();
        removed += local ? 0 : 1;
        return request(store.delete(keys[i]), 'write');
      });
      await Promise.all(done);
    } finally {
      db.close();
    }
  }
  return removed;
}
