// An icrs_db store over fake-indexeddb: the real Dexie storage, in Node.
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import type { RxStorage } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { createIcrsDb, type IcrsDatabase, type IcrsDbOptions } from '../../src/lib/db/database';

export function fakeIndexedDbStorage(): RxStorage<unknown, unknown> {
  return getRxStorageDexie({ indexedDB, IDBKeyRange }) as RxStorage<unknown, unknown>;
}

let counter = 0;
/** A fresh store with a name of its own; close it in afterEach/afterAll (RxDB allows 13 open collections). */
export function openTestDb(options: IcrsDbOptions = {}): Promise<IcrsDatabase> {
  return createIcrsDb({ storage: fakeIndexedDbStorage(), name: `icrs_test_${process.pid}_${++counter}`, ...options });
}
