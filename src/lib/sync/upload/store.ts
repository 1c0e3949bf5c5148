// The engine's reads and writes of icrs_db. Everything the engine knows about what is left to do
// is read from here at the moment it is needed: a crash loses nothing the store does not hold.
import { collectionOf, type IcrsDatabase, oweServerCopy, STORE_READ_BOUND_MS, withinBound } from '../../store';
import type { RxCollection, RxDocument } from 'rxdb';
import { recordTitle, type EntityShape } from '../../../../schemas/define';
import { COMPOSITE_SEPARATOR } from '../../../../schemas/derive/rxdb';
import { file as fileEntity, getEntity, getEntityByTable, uploadOrder } from '../../../../schemas';
import { conflictText, erasedOf, errorText } from './sync-error';
import type { ConflictInfo } from './types';

/** A stored document: the entity's fields plus the sync fields (schemas/derive/types.ts SyncFields). */
export type DocData = Record<string, unknown> & {
  syncState?: 'synced' | 'pending';
  syncOp?: 'create' | 'update';
  syncBase?: string;
  syncAttempts?: number;
  syncError?: string;
  sortDesc?: string;
};
export type LocalDoc = RxDocument<DocData>;
export type LocalCollection = RxCollection<DocData>;

/** The kinds that upload, in product.md §4 order (profile images last). */
export const UPLOAD_KINDS: readonly EntityShape[] = uploadOrder;

export function collection(db: IcrsDatabase, entity: EntityShape): LocalCollection {
  return collectionOf(db, entity) as LocalCollection;
}

/** The upload kind stored in `table`, or an error naming it. */
export function uploadKind(table: string): EntityShape {
  const entity = getEntityByTable(table);
  if (!entity?.upload) throw new Error(`${table} is not a table the upload engine sends`);
  return entity;
}

/** Keys of the pending records of a kind, oldest first (the order they were made in). Read from
 * the `[syncState, sortDesc]` index alone where the storage is Dexie (`keysFromIndex`), so the
 * plan of a run reads no document (the profile photos alone are 45 MB of base64 for 2,000
 * records); else, or if that read fails, from the same query's documents. */
export async function pendingKeys(db: IcrsDatabase, entity: EntityShape): Promise<string[]> {
  const pending = collection(db, entity);
  const fromIndex = await keysFromIndex(pending).catch(() => undefined);
  if (fromIndex) return fromIndex.reverse();
  const docs = await pending.find({ selector: { syncState: 'pending' }, sort: [{ sortDesc: 'asc' }] }).exec();
  return docs.map((d) => d.primary).reverse();
}

/** What pendingKeys needs of RxDB's Dexie storage (rxdb/plugins/storage-dexie: the documents'
 * table, with RxDB's index `[_deleted+syncState+sortDesc+<primary key>]`, `_deleted` as '0'/'1'). */
interface DexieInternals {
  dexieTable?: {
    schema?: { idxByName?: Record<string, unknown> };
    where(index: string): {
      between(lower: unknown[], upper: unknown[], includeLower: boolean, includeUpper: boolean): { primaryKeys(): Promise<unknown[]> };
    };
  };
}

/**
 * The primary keys of a collection's live pending documents in `sortDesc` order (then by key,
 * as RxDB sorts), read from its Dexie index without reading a document; undefined when the
 * storage is not Dexie or lacks that index (the caller queries instead).
 */
export async function keysFromIndex(pending: LocalCollection): Promise<string[] | undefined> {
  const instance = pending.storageInstance as { originalStorageInstance?: { internals?: unknown }; internals?: unknown };
  const internals = (await (instance.originalStorageInstance ?? instance).internals) as DexieInternals | undefined;
  const table = internals?.dexieTable;
  const index = `[_deleted+syncState+sortDesc+${pending.schema.primaryPath as string}]`;
  if (!table?.schema?.idxByName?.[index]) return undefined;
  // Arrays sort after strings in IndexedDB: ['0','pending'] … ['0','pending', []] holds every
  // ['0','pending', sortDesc, key] and nothing else.
  // Read below RxDB, so outside its storage's bounds: bounded here (docs/adr/0046-store-never-waits-forever.md "The
  // device's store never waits forever").
  const keys = await withinBound(
    table.where(index).between(['0', 'pending'], ['0', 'pending', []], true, true).primaryKeys(),
    STORE_READ_BOUND_MS,
    'read',
  );
  return keys.map(String);
}

export async function pendingDocs(db: IcrsDatabase, entity: EntityShape): Promise<LocalDoc[]> {
  return collection(db, entity)
    .find({ selector: { syncState: 'pending' }, sort: [{ sortDesc: 'asc' }] })
    .exec();
}

export function readDoc(db: IcrsDatabase, entity: EntityShape, key: string): Promise<LocalDoc | null> {
  return collection(db, entity).findOne(key).exec();
}

/** The key of the record on the server, as its REST path takes it (profile images: the profile's). */
export function serverKey(entity: EntityShape, data: Readonly<DocData>): string {
  return String(data[entity.keyFields[0] as string]);
}

/** The RxDB primary key of a document's data (`a|b` for two-part keys). */
export function localKey(entity: EntityShape, data: Readonly<Record<string, unknown>>): string {
  return entity.keyFields.map((k) => String(data[k])).join(COMPOSITE_SEPARATOR);
}

/** The documents of these keys that the store holds (one read). */
export async function readDocs(db: IcrsDatabase, entity: EntityShape, keys: readonly string[]): Promise<Map<string, LocalDoc>> {
  return keys.length
    ? collection(db, entity)
        .findByIds([...keys])
        .exec()
    : new Map();
}

/** The keys of these records' parents that are still waiting on this device (failed, blocked
 * or in conflict), in one read: the server may not have them, so their children must wait too. A
 * parent the device does not hold, or holds as a server copy, is on the server. */
export async function pendingParents(db: IcrsDatabase, entity: EntityShape, records: readonly Readonly<DocData>[]): Promise<Set<string>> {
  const parentEntity = entity.parent && getEntity(entity.parent.entity);
  if (!entity.parent || !parentEntity) return new Set();
  const field = entity.parent.field;
  const parents = await readDocs(db, parentEntity, [...new Set(records.map((data) => String(data[field])))]);
  // A parent whose client was erased on the server never goes: its children are sent, and
  // refused for that erasure themselves (docs/security.md "Erased means gone").
  return new Set([...parents].filter(([, parent]) => parent.syncState === 'pending' && !erasedOf(parent.syncError)).map(([key]) => key));
}

/** The images (`files`) of a job or service, by their keys `srcId|1..3`. */
export async function imagesOf(db: IcrsDatabase, entity: EntityShape, key: string): Promise<LocalDoc[]> {
  return (await imagesOfMany(db, entity, [key])).get(key) ?? [];
}

/** The images of many records of a kind, by record key (one read); records without images are absent. */
export async function imagesOfMany(db: IcrsDatabase, entity: EntityShape, keys: readonly string[]): Promise<Map<string, LocalDoc[]>> {
  const byRecord = new Map<string, LocalDoc[]>();
  if (!entity.images.length || !keys.length) return byRecord;
  const recordOf = new Map(
    keys.flatMap((key) => entity.images.map((_, i): [string, string] => [`${key}${COMPOSITE_SEPARATOR}${i + 1}`, key])),
  );
  for (const [id, image] of await collection(db, fileEntity)
    .findByIds([...recordOf.keys()])
    .exec()) {
    const key = recordOf.get(id);
    if (key === undefined || image.get('srcTable') !== entity.table) continue;
    byRecord.set(key, [...(byRecord.get(key) ?? []), image]);
  }
  return byRecord;
}

/** A failed attempt: kept, with one more attempt and the error to show. `serverUpdatedAt`: the
 * server took part of it (fields, not yet the images), so what is left is an update of that version. */
export async function markFailed(doc: LocalDoc, message: string, serverUpdatedAt?: string): Promise<void> {
  await patchLatest(doc, (d) => ({
    ...d,
    syncAttempts: (d.syncAttempts ?? 0) + 1,
    syncError: errorText(message),
    ...(serverUpdatedAt ? { syncOp: 'update' as const, syncBase: serverUpdatedAt } : {}),
  }));
}

/** A conflict: kept, with the server side for the pending screen. */
export async function markConflict(doc: LocalDoc, info: ConflictInfo): Promise<void> {
  await patchLatest(doc, (d) => ({ ...d, syncAttempts: (d.syncAttempts ?? 0) + 1, syncError: conflictText(info) }));
}

/** Applies `change` to the latest version of the document; nothing when it is gone (another tab
 * finished it, or the user discarded it meanwhile). */
async function patchLatest(doc: LocalDoc, change: (d: DocData) => DocData): Promise<void> {
  try {
    await doc.incrementalModify(change);
  } catch (error) {
    if (!(await doc.collection.findOne(doc.primary).exec())) return;
    throw error;
  }
}

/**
 * The record and its images are on the server: remove the local copies that were sent. Removal
 * is by revision (RxDB refuses to remove a document changed since it was read), so an edit made
 * while the request was on its way survives: the record then stays as a pending update of what
 * the server now holds. Answers true when nothing is left.
 */
export async function finishUploaded(
  db: IcrsDatabase,
  entity: EntityShape,
  doc: LocalDoc,
  sentImages: readonly LocalDoc[],
  serverUpdatedAt: string | undefined,
): Promise<boolean> {
  // Images first: a crash after this leaves the record, whose next upload finds it on the server.
  const images = sentImages.length ? await collection(db, fileEntity).bulkRemove([...sentImages]) : { error: [] };
  const unsentImages = images.error.length > 0 || (await imagesOf(db, entity, doc.primary)).length > 0;
  if (!unsentImages) {
    const removed = await doc.collection.bulkRemove([doc]);
    if (removed.error.length === 0) return true;
  }
  await rebase(doc, serverUpdatedAt);
  return false;
}

/**
 * Many records of one kind are on the server (a batch's answers), with the images they carried:
 * the images, then the records, removed in one write each, each by its revision, like
 * `finishUploaded`. A record edited meanwhile, or given an image meanwhile, is not removed: it
 * stays as a pending update of the server's version.
 */
export async function finishUploadedMany(
  db: IcrsDatabase,
  entity: EntityShape,
  done: readonly { doc: LocalDoc; images?: readonly LocalDoc[]; updatedAt?: string }[],
): Promise<void> {
  if (!done.length) return;
  // Images first: a crash after this leaves the records, whose next upload finds them on the server.
  const sentImages = done.flatMap(({ images }) => images ?? []);
  if (sentImages.length) await collection(db, fileEntity).bulkRemove(sentImages);
  const withImages = new Set(
    (
      await imagesOfMany(
        db,
        entity,
        done.map(({ doc }) => doc.primary),
      )
    ).keys(),
  );
  const removable = done.filter(({ doc }) => !withImages.has(doc.primary));
  const removed = removable.length ? await collection(db, entity).bulkRemove(removable.map(({ doc }) => doc)) : { error: [] };
  const refused = new Set(removed.error.map((e) => e.documentId));
  for (const { doc, updatedAt } of done) {
    if (withImages.has(doc.primary) || refused.has(doc.primary)) await rebase(doc, updatedAt);
  }
}

/** Turns what is left of an uploaded record into an update of the server's version. */
async function rebase(doc: LocalDoc, serverUpdatedAt: string | undefined): Promise<void> {
  await patchLatest(doc, (d) => {
    const next: DocData = { ...d, syncState: 'pending', syncOp: 'update', syncAttempts: 0 };
    if (serverUpdatedAt) next.syncBase = serverUpdatedAt;
    delete next.syncError;
    delete next.syncRemoveImages; // the request that succeeded emptied them
    return next;
  });
}

/**
 * Drops a local edit and its images (discarded, or a conflict settled in favour of the server's
 * copy). The edit had replaced the device's copy of a server record, and the pull feed may be
 * past that record's row: its server copy is owed first, so the replication brings it back.
 */
export async function dropLocalEdit(db: IcrsDatabase, entity: EntityShape, doc: LocalDoc): Promise<void> {
  if (entity.server) await oweServerCopy(db, entity.table, [doc.primary]);
  const images = await imagesOf(db, entity, doc.primary);
  if (images.length) await collection(db, fileEntity).bulkRemove(images.map((i) => i.primary));
  await doc.collection.bulkRemove([doc.primary]);
}

/** A name for the pending screen: the entity's title fields, else the record's key. */
export function labelOf(entity: EntityShape, data: Readonly<DocData>): string {
  return recordTitle(entity, data) || localKey(entity, data);
}
