// A user's store on this device, handled below RxDB and without its key (issue 25): removed
// whole ("Remove my data from this device"), or emptied of its mirror while its pending records
// stay (a deactivated account: what the server holds goes, what only the device holds waits,
// sealed, until the account may upload again). RxDB's Dexie storage keeps each collection in an
// IndexedDB database `rxdb-dexie-<store>--<version>--<collection>` whose table `docs` holds the
// documents, `syncState` in clear (sealedStorage.ts), so neither needs the vault open. Call them
// while the store is closed (before it opens, or before a reload).
import { storeNameFor } from './collections';

const DOCS = 'docs';

export async function databaseNames(): Promise<string[]> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return [];
  return (await indexedDB.databases()).map((info) => info.name ?? '').filter(Boolean);
}

/** The IndexedDB databases of the user's store. */
export async function storeDatabases(userId: string): Promise<string[]> {
  const prefix = `rxdb-dexie-${storeNameFor(userId)}--`;
  return (await databaseNames()).filter((name) => name.startsWith(prefix));
}

export function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error);
    req.onblocked = () => resolve(); // removed once the last connection closes
  });
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
    const db = await request(indexedDB.open(name));
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
        return request(store.delete(keys[i]));
      });
      await Promise.all(done);
    } finally {
      db.close();
    }
  }
  return removed;
}
