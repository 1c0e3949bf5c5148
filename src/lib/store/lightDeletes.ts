// Removing a stored image without carrying its bytes around (docs/archive/performance-log.md, upload from
// Chromium, session 8). RxDB keeps a removed document as a tombstone (its whole data with
// `_deleted`), and with `multiInstance` posts every change, the previous version included, to
// the other tabs through a BroadcastChannel. For a 270 KB photo that was ~540 KB cloned per
// removal on the page's main thread and 270 KB written again to IndexedDB, about a third of the
// page's work per uploaded photo.
//
// This storage wrapper empties the image fields (strings as long as an image's base64: from the
// schemas, see `heavyFields`; emptied, not left out, so every document still fits its schema,
// which the dev-mode validator checks, removed ones and schema migrations included) in:
// - the tombstone written on a removal (nothing reads a removed document's fields: the pull and
//   the data layer treat a tombstone as absent, and the app has no push replication);
// - what is posted to the other tabs: a removal's document and previous version, and the
//   previous version of an update. The new version of an insert or update travels whole, so the
//   other tabs' queries and documents see the same data as this tab's.
// This tab's own events keep the whole documents (a removal's emptied tombstone aside). Otherwise it is RxDB's own multi-instance
// support (rx-storage-multiinstance.ts), on the same channel and message format, so tabs of an
// older build and this one still see each other's writes.
import {
  getBroadcastChannelReference,
  removeBroadcastChannelReference,
  type EventBulk as RxEventBulk,
  type RxStorage,
  type RxStorageChangeEvent,
  type RxStorageInstance,
  type RxStorageInstanceCreationParams,
} from 'rxdb';
import { mergeWith, Subject } from 'rxjs';
import { MAX_IMAGE_BASE64 } from '../../../schemas/entities/common';

type AnyInstance = RxStorageInstance<Record<string, unknown>, unknown, unknown, unknown>;
type AnyParams = RxStorageInstanceCreationParams<Record<string, unknown>, unknown>;
type EventBulk = RxEventBulk<RxStorageChangeEvent<Record<string, unknown>>, unknown>;
type Doc = Record<string, unknown> | null | undefined;

interface Message {
  storageName: string;
  databaseName: string;
  collectionName: string;
  version: number;
  eventBulk: EventBulk;
}

/** The fields of a schema that hold image bytes: strings allowed to be as long as an image's
 * base64 (and to be empty). */
export function heavyFields(schema: AnyParams['schema']): string[] {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; maxLength?: number; minLength?: number }>;
  return Object.entries(properties)
    .filter(([, p]) => p.type === 'string' && (p.maxLength ?? 0) >= MAX_IMAGE_BASE64 && (p.minLength ?? 0) === 0)
    .map(([name]) => name);
}

/** `doc` with its image fields emptied. */
function without<T extends Doc>(doc: T, fields: readonly string[]): T {
  if (!doc || !fields.some((f) => typeof doc[f] === 'string' && doc[f] !== '')) return doc;
  const light: Record<string, unknown> = { ...doc };
  for (const f of fields) if (typeof light[f] === 'string') light[f] = '';
  return light as T;
}

/** `storage` with light removals and light broadcasts for the collections with image fields. */
export function withLightDeletes<I, O>(storage: RxStorage<I, O>): RxStorage<I, O> {
  return {
    name: storage.name,
    rxdbVersion: storage.rxdbVersion,
    async createStorageInstance(params) {
      const heavy = heavyFields(params.schema as AnyParams['schema']);
      if (!heavy.length) return storage.createStorageInstance(params);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the instance keeps its own document type
      type Created = any;
      const instance = (await storage.createStorageInstance({ ...params, multiInstance: false })) as unknown as AnyInstance;
      const bulkWrite = instance.bulkWrite.bind(instance);
      instance.bulkWrite = (rows, context) =>
        bulkWrite(
          rows.map((row) => (row.document._deleted ? { ...row, document: without(row.document, heavy) } : row)),
          context,
        );
      if (params.multiInstance) broadcastLightly(storage.name, params as unknown as AnyParams, instance, heavy);
      return instance as Created;
    },
  };
}

/** RxDB's addRxStorageMultiInstanceSupport, with the image fields emptied as described above. */
function broadcastLightly(storageName: string, params: AnyParams, instance: AnyInstance, heavy: readonly string[]): void {
  const channel = getBroadcastChannelReference(storageName, params.databaseInstanceToken, instance.databaseName, instance);
  const fromOthers = new Subject<EventBulk>();
  const listener = (msg: Message) => {
    if (
      msg.storageName === storageName &&
      msg.databaseName === params.databaseName &&
      msg.collectionName === params.collectionName &&
      msg.version === params.schema.version
    ) {
      fromOthers.next(msg.eventBulk);
    }
  };
  channel.addEventListener('message', listener as never);
  const own = instance.changeStream();
  let closed = false;
  const subscription = own.subscribe((eventBulk: EventBulk) => {
    if (closed) return;
    const events = eventBulk.events.map((event) => ({
      ...event,
      documentData: event.operation === 'DELETE' ? without(event.documentData, heavy) : event.documentData,
      previousDocumentData: without(event.previousDocumentData, heavy),
    }));
    const message: Message = {
      storageName,
      databaseName: params.databaseName,
      collectionName: params.collectionName,
      version: params.schema.version,
      eventBulk: { ...eventBulk, events },
    };
    void channel.postMessage(message as never);
  });
  instance.changeStream = () => fromOthers.asObservable().pipe(mergeWith(own)) as ReturnType<AnyInstance['changeStream']>;
  const detach = async () => {
    closed = true;
    subscription.unsubscribe();
    channel.removeEventListener('message', listener as never);
    await removeBroadcastChannelReference(params.databaseInstanceToken, instance);
  };
  const close = instance.close.bind(instance);
  instance.close = async () => {
    await detach();
    return close();
  };
  const remove = instance.remove.bind(instance);
  instance.remove = async () => {
    await detach();
    return remove();
  };
}
