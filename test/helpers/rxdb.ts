// An icrs_db store over fake-indexeddb: the real Dexie storage, in Node.
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import type { RxStorage } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import type { EntityShape } from '../../schemas/define';
import { file } from '../../schemas/index';
import { collectionOf, createIcrsDb, type IcrsDatabase, type IcrsDbOptions } from '../../src/lib/store/database';
import { isVaultOpen, openWithKey, vaultSealer } from '../../src/lib/vault/vault';
import { pendingDoc, pendingImageDoc, type PendingOp } from './pending';

export function fakeIndexedDbStorage(): RxStorage<unknown, unknown> {
  return getRxStorageDexie({ indexedDB, IDBKeyRange }) as RxStorage<unknown, unknown>;
}

/** The vault opened with a key of its own, as after a sign-in: the client collections are sealed
 * in every store the tests open (ADR-0020). */
export async function openTestVault(userId = 'test-user'): Promise<void> {
  if (isVaultOpen(userId)) return;
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  openWithKey(userId, key);
}

let counter = 0;
/** A fresh store with a name of its own; close it in afterEach/afterAll (RxDB allows 13 open collections). */
export async function openTestDb(options: Partial<IcrsDbOptions> = {}): Promise<IcrsDatabase> {
  await openTestVault();
  return createIcrsDb({ storage: fakeIndexedDbStorage(), name: `icrs_test_${process.pid}_${++counter}`, sealer: vaultSealer, ...options });
}

/** Stores a pending document of `body` (test/helpers/pending.ts); answers its primary key. */
export async function addPending(
  db: IcrsDatabase,
  entity: EntityShape,
  body: Record<string, unknown>,
  op: PendingOp = 'create',
  base?: string,
): Promise<string> {
  return (await collectionOf(db, entity).insert(pendingDoc(entity, body, op, base))).primary;
}

/** Stores a pending image of slot `imgNo` of a record. */
export async function addPendingImage(db: IcrsDatabase, owner: EntityShape, srcId: string, imgNo: number, bytes: Buffer): Promise<void> {
  await collectionOf(db, file).insert(pendingImageDoc(owner, srcId, imgNo, bytes));
}
