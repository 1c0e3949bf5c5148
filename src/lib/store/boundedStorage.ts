// Every call of RxDB into the storage below it has a bound (bounds.ts): a write, a read, a
// count, the opening of a collection. Outermost wrapper of the store's storage (database.ts),
// so the sealing and opening of client data (sealedStorage.ts) are inside the bound, and every
// caller (the forms, the upload engine, the pull, the offline home's counts) gets an answer.
import type { RxStorage, RxStorageInstance } from 'rxdb';
import { EVENT_OPEN_BOUND_MS, STORE_OPEN_BOUND_MS, STORE_READ_BOUND_MS, STORE_WRITE_BOUND_MS, withinBound } from './bounds';

type AnyInstance = RxStorageInstance<Record<string, unknown>, unknown, unknown, unknown>;

export interface StoreBounds {
  writeMs: number;
  readMs: number;
  openMs: number;
  /** The opening of one bulk of another tab's change events (sealedStorage.ts). */
  eventOpenMs: number;
}

export const DEFAULT_BOUNDS: StoreBounds = {
  writeMs: STORE_WRITE_BOUND_MS,
  readMs: STORE_READ_BOUND_MS,
  openMs: STORE_OPEN_BOUND_MS,
  eventOpenMs: EVENT_OPEN_BOUND_MS,
};

/** `storage` with each instance's reads and writes bounded (in place, as lightDeletes.ts does:
 * the instance keeps its internals, which the upload engine reads). */
export function withBounds<I, O>(storage: RxStorage<I, O>, bounds: StoreBounds = DEFAULT_BOUNDS): RxStorage<I, O> {
  return {
    name: storage.name,
    rxdbVersion: storage.rxdbVersion,
    async createStorageInstance(params) {
      const instance = await withinBound(storage.createStorageInstance(params), bounds.openMs, 'open');
      bound(instance as unknown as AnyInstance, bounds);
      return instance;
    },
  };
}

function bound(instance: AnyInstance, { writeMs, readMs }: StoreBounds): void {
  const bulkWrite = instance.bulkWrite.bind(instance);
  instance.bulkWrite = (rows, context) => withinBound(bulkWrite(rows, context), writeMs, 'write');
  const findDocumentsById = instance.findDocumentsById.bind(instance);
  instance.findDocumentsById = (ids, withDeleted) => withinBound(findDocumentsById(ids, withDeleted), readMs, 'read');
  const query = instance.query.bind(instance);
  instance.query = (prepared) => withinBound(query(prepared), readMs, 'read');
  const count = instance.count.bind(instance);
  instance.count = (prepared) => withinBound(count(prepared), readMs, 'read');
  const getAttachmentData = instance.getAttachmentData.bind(instance);
  instance.getAttachmentData = (id, attachmentId, digest) => withinBound(getAttachmentData(id, attachmentId, digest), readMs, 'read');
  if (instance.getChangedDocumentsSince) {
    const changedSince = instance.getChangedDocumentsSince.bind(instance);
    instance.getChangedDocumentsSince = (limit, checkpoint) => withinBound(changedSince(limit, checkpoint), readMs, 'read');
  }
}
