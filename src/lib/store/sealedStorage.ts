// Client data at rest, sealed (ADR-0020, docs/security.md "Shared and lost devices"). A storage
// wrapper under RxDB: the documents of the client collections (profiles, their sub-records and
// images: the entities whose scope is private, schemas/scope.ts) reach IndexedDB as
//   { <key and index fields in clear>, _meta, _rev, _deleted, _attachments, sealed: <AES-GCM> }
// where `sealed` holds every other field, under the vault's data key (src/lib/vault). What stays
// in clear is what IndexedDB must index and nothing personal: the record's key and its parent's
// (random UUIDs, and a profile image's kind), `syncState` and `sortDesc` (a time and the key).
// Directory collections (providers, services, jobs…) pass through unchanged.
//
// Queries on clear fields only (by key, by parent, pending first, newest first) run in IndexedDB
// as before and their documents are opened. A query on a sealed field (the client list's search,
// filters and sorts) cannot run there: it runs here, in memory, over the documents IndexedDB finds
// for its conditions on clear fields (`syncState: 'pending'`: the few records waiting), or, with
// none, over the collection's opened documents, kept in memory while the page lives and updated
// from the storage's change stream (this tab's writes and other tabs'). The profile images'
// collection keeps none in memory (photos are large) and is never searched on a sealed field.
import {
  getQueryMatcher,
  getSortComparator,
  normalizeMangoQuery,
  prepareQuery,
  type BulkWriteRow,
  type EventBulk,
  type PreparedQuery,
  type RxDocumentData,
  type RxJsonSchema,
  type RxStorage,
  type RxStorageBulkWriteResponse,
  type RxStorageChangeEvent,
  type RxStorageInstance,
  type RxStorageInstanceCreationParams,
} from 'rxdb';
import { fromDexieToStorage } from 'rxdb/plugins/storage-dexie';
import { Observable, Subject } from 'rxjs';
import type { EntityShape } from '../../../schemas/define';
import { isPrivate } from '../../../schemas/scope';
import { collectionName, OFFLINE_ENTITIES } from './collections';
import { heavyFields } from './lightDeletes';
import { EVENT_OPEN_BOUND_MS, withinBound } from './bounds';
import { registerWarmer } from './warmCache';

type Doc = RxDocumentData<Record<string, unknown>>;
type AnyInstance = RxStorageInstance<Record<string, unknown>, unknown, unknown, unknown>;
type AnyParams = RxStorageInstanceCreationParams<Record<string, unknown>, unknown>;
type Schema = RxJsonSchema<Doc>;
type Events = EventBulk<RxStorageChangeEvent<Doc>, unknown>;

/** The field holding a sealed document's other fields. */
export const SEALED_FIELD = 'sealed';

/** The field holding an image field sealed on its own (`sealed_data`): an upload's writes of a
 * photo's state seal its bytes once, not at each write. */
const sealedName = (heavyField: string): string => `${SEALED_FIELD}_${heavyField}`;

/** The last image values sealed, by value: a write that keeps a photo reuses its sealed text. */
const HEAVY_MEMO = 8;

/** How documents are sealed and opened: the vault's data key (`vaultSealer`, src/lib/vault), given
 * by whoever opens the store (the store imports no vault: ADR-0049). */
export interface Sealer {
  seal(value: Record<string, unknown>): Promise<string>;
  open(sealed: string): Promise<Record<string, unknown>>;
}

/** The entities whose documents are sealed: client data (only its organisation reads it). */
export const SEALED_ENTITIES: readonly EntityShape[] = OFFLINE_ENTITIES.filter(isPrivate);
const sealedByCollection = new Map(SEALED_ENTITIES.map((entity) => [collectionName(entity), entity]));

/** RxDB's own fields, in clear: the storage needs them. */
const META = ['_deleted', '_rev', '_meta', '_attachments'];

/** The fields of `entity` kept in clear: keys, the parent's key, and the two sync index fields. */
export function clearFields(entity: EntityShape, schema: Schema): Set<string> {
  const primary = schema.primaryKey;
  const keyParts = typeof primary === 'string' ? [primary] : [primary.key, ...primary.fields];
  return new Set([...META, ...keyParts, ...(entity.parent ? [entity.parent.field] : []), 'syncState', 'sortDesc']);
}

/** What IndexedDB is told of a sealed collection: its clear fields, `sealed`, and only the
 * indexes made of clear fields. */
function storedSchema(schema: Schema, clear: ReadonlySet<string>, heavy: readonly string[]): Schema {
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([name]) => clear.has(name)));
  const indexes = (schema.indexes ?? []).filter((index) => (Array.isArray(index) ? index : [index]).every((field) => clear.has(field)));
  const sealedHeavy = Object.fromEntries(heavy.map((name) => [sealedName(name), { type: 'string' }]));
  return {
    ...schema,
    properties: { ...properties, [SEALED_FIELD]: { type: 'string' }, ...sealedHeavy },
    required: (schema.required ?? []).filter((name) => clear.has(name)),
    indexes,
  } as Schema;
}

/** The fields a selector or sort reads (top-level names; operators walked through). */
function fieldsOf(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) fieldsOf(item, into);
  else if (value && typeof value === 'object') {
    for (const [name, inner] of Object.entries(value)) {
      if (name.startsWith('$')) fieldsOf(inner, into);
      else into.add(name.split('.')[0]);
    }
  }
  return into;
}

/** True when IndexedDB can answer the query: every field its selector and sort read is clear. */
function inClear(prepared: PreparedQuery<Doc>, clear: ReadonlySet<string>): boolean {
  const read = fieldsOf(prepared.query.selector, new Set());
  for (const part of prepared.query.sort) for (const name of Object.keys(part)) read.add(name.split('.')[0]);
  return [...read].every((name) => clear.has(name));
}

/** The query as IndexedDB can run it: RxDB plans over the whole schema, and may pick an index
 * with a sealed field even for a query on clear fields (an empty count's plan led with `sex`,
 * which sent the count of the client list through every document opened, 5,027 decryptions
 * before its first row); such a query is planned again over the stored schema's indexes. */
function clearPlan(prepared: PreparedQuery<Doc>, clear: ReadonlySet<string>, stored: Schema): PreparedQuery<Doc> {
  if (prepared.queryPlan.index.every((name) => clear.has(name.split('.')[0]))) return prepared;
  return prepareQuery(stored, prepared.query);
}

/** `storage` with the client collections sealed under `sealer`. */
export function withSealedClients<I, O>(storage: RxStorage<I, O>, sealer: Sealer, eventOpenMs = EVENT_OPEN_BOUND_MS): RxStorage<I, O> {
  return {
    name: storage.name,
    rxdbVersion: storage.rxdbVersion,
    async createStorageInstance(params) {
      const entity = sealedByCollection.get(params.collectionName);
      if (!entity) return storage.createStorageInstance(params);
      const schema = params.schema as unknown as Schema;
      const clear = clearFields(entity, schema);
      const heavy = heavyFields(params.schema as AnyParams['schema']);
      const inner = (await storage.createStorageInstance({
        ...params,
        schema: storedSchema(schema, clear, heavy) as never,
      })) as unknown as AnyInstance;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the instance keeps its own document type
      return sealedInstance(inner, schema, clear, sealer, heavy, eventOpenMs) as any;
    },
  };
}

function sealedInstance(
  inner: AnyInstance,
  schema: Schema,
  clear: ReadonlySet<string>,
  sealer: Sealer,
  heavy: readonly string[],
  eventOpenMs: number,
): AnyInstance {
  const storedAs = inner.schema as unknown as Schema;
  // The opened form of each document this page sealed: its own writes come back in the change
  // events and conflict answers as the very objects it gave, which need no opening.
  const openedOf = new WeakMap<object, Doc>();

  const heavyMemo = new Map<string, string>();

  /** An image field's value sealed on its own ('' stays '': no image). */
  async function sealHeavy(name: string, value: unknown): Promise<string> {
    if (typeof value !== 'string' || value === '') return '';
    const known = heavyMemo.get(value);
    if (known) return known;
    const sealed = await sealer.seal({ [name]: value });
    heavyMemo.set(value, sealed);
    if (heavyMemo.size > HEAVY_MEMO) heavyMemo.delete(heavyMemo.keys().next().value!);
    return sealed;
  }

  async function toStorage(doc: Doc): Promise<Doc> {
    const stored: Record<string, unknown> = {};
    const hidden: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(doc)) {
      if (clear.has(name)) stored[name] = value;
      else if (!heavy.includes(name)) hidden[name] = value;
    }
    const [rest, ...images] = await Promise.all([sealer.seal(hidden), ...heavy.map((name) => sealHeavy(name, doc[name]))]);
    stored[SEALED_FIELD] = rest;
    heavy.forEach((name, i) => {
      if (name in doc) stored[sealedName(name)] = images[i];
    });
    openedOf.set(stored, doc);
    return stored as Doc;
  }

  async function fromStorage(stored: Doc): Promise<Doc> {
    const known = openedOf.get(stored);
    if (known) return known;
    const { [SEALED_FIELD]: sealed, ...rest } = stored as Record<string, unknown>;
    if (typeof sealed !== 'string') return stored; // written before sealing existed
    const opened: Record<string, unknown> = { ...(await sealer.open(sealed)), ...rest };
    await Promise.all(
      heavy.map(async (name) => {
        const image = opened[sealedName(name)];
        delete opened[sealedName(name)];
        if (typeof image === 'string') opened[name] = image === '' ? '' : (await sealer.open(image))[name];
      }),
    );
    openedOf.set(stored, opened as Doc);
    return opened as Doc;
  }

  /** A write's `previous`: the storage compares only its revision, and hands it back in the
   * change event, so its clear fields serve (nothing sealed: one seal less per update). */
  function previousToStorage(doc: Doc): Doc {
    const stored = Object.fromEntries(Object.entries(doc).filter(([name]) => clear.has(name))) as Doc;
    openedOf.set(stored, doc);
    return stored;
  }

  const maybeFrom = (doc: Doc | null | undefined) => (doc ? fromStorage(doc) : Promise.resolve(doc));

  // Change events, opened in order: RxDB wants every event of a write out before the write
  // resolves, so a write waits until the events up to its own are through. Each bulk's opening
  // has a bound (EVENT_OPEN_BOUND_MS): an opening that never settles (a WebCrypto answer that
  // never comes) drops that bulk, logged, instead of holding every later write of the
  // collection for good (docs/adr/0046-store-never-waits-forever.md "The device's store never waits forever").
  const events$ = new Subject<Events>();
  let eventsOpened: Promise<void> = Promise.resolve();
  const openBulk = async (bulk: EventBulk<RxStorageChangeEvent<Record<string, unknown>>, unknown>): Promise<Events> => {
    const events = await Promise.all(
      bulk.events.map(async (event) => ({
        ...event,
        documentData: (await fromStorage(event.documentData as Doc)) as Doc,
        previousDocumentData: (await maybeFrom(event.previousDocumentData as Doc | undefined)) as Doc,
      })),
    );
    return { ...bulk, events } as Events;
  };
  const innerEvents = inner.changeStream().subscribe((bulk) => {
    eventsOpened = eventsOpened.then(() =>
      withinBound(openBulk(bulk), eventOpenMs, 'read').then(
        (events) => events$.next(events),
        (error: unknown) => console.error('A change of a sealed collection could not be opened:', error),
      ),
    );
  });

  const cache = heavy.length ? null : openedCache(inner, events$, fromStorage);

  /** The candidates of a query on sealed fields: when it also asks a clear field for a value
   * (`syncState: 'pending'`, a parent's key), the few documents IndexedDB finds for that;
   * else every document (the cache). */
  async function candidates(prepared: PreparedQuery<Doc>): Promise<Doc[]> {
    const narrowing = clearConjuncts(prepared.query.selector, clear);
    if (narrowing) return readWhere(inner, narrowing, fromStorage);
    return cache ? cache.all() : readWhere(inner, {}, fromStorage);
  }

  /** The candidates that match the query's selector, in no order. */
  async function matching(prepared: PreparedQuery<Doc>): Promise<Doc[]> {
    const docs = await candidates(prepared);
    const matches = getQueryMatcher(schema, prepared.query);
    return docs.filter((doc) => matches(doc));
  }

  async function inMemory(prepared: PreparedQuery<Doc>): Promise<Doc[]> {
    const found = await matching(prepared);
    found.sort(getSortComparator(schema, prepared.query));
    const skip = prepared.query.skip ?? 0;
    return found.slice(skip, prepared.query.limit === undefined ? undefined : skip + prepared.query.limit);
  }

  const instance: AnyInstance = {
    databaseName: inner.databaseName,
    internals: inner.internals,
    options: inner.options,
    schema: schema as AnyInstance['schema'],
    collectionName: inner.collectionName,
    async bulkWrite(
      rows: BulkWriteRow<Record<string, unknown>>[],
      context: string,
    ): Promise<RxStorageBulkWriteResponse<Record<string, unknown>>> {
      const stored = await Promise.all(
        rows.map(async (row) => ({
          document: await toStorage(row.document),
          ...(row.previous ? { previous: previousToStorage(row.previous) } : {}),
        })),
      );
      const result = await inner.bulkWrite(stored as never, context);
      const error = await Promise.all(
        result.error.map(async (failure) => {
          const index = stored.findIndex((row) => row.document === failure.writeRow.document);
          const writeRow = index >= 0 ? rows[index] : { document: await fromStorage(failure.writeRow.document as Doc) };
          const inDb =
            'documentInDb' in failure && failure.documentInDb ? { documentInDb: await fromStorage(failure.documentInDb as Doc) } : {};
          return { ...failure, ...inDb, writeRow };
        }),
      );
      await eventsOpened; // its own events were emitted before inner.bulkWrite resolved
      return { error: error as RxStorageBulkWriteResponse<Record<string, unknown>>['error'] };
    },
    async findDocumentsById(ids, withDeleted) {
      return Promise.all((await inner.findDocumentsById(ids, withDeleted)).map((doc) => fromStorage(doc as Doc)));
    },
    async query(prepared) {
      if (inClear(prepared as PreparedQuery<Doc>, clear)) {
        const { documents } = await inner.query(clearPlan(prepared as PreparedQuery<Doc>, clear, storedAs) as never);
        return { documents: await Promise.all(documents.map((doc) => fromStorage(doc as Doc))) };
      }
      return { documents: await inMemory(prepared as PreparedQuery<Doc>) };
    },
    async count(prepared) {
      if (inClear(prepared as PreparedQuery<Doc>, clear))
        return inner.count(clearPlan(prepared as PreparedQuery<Doc>, clear, storedAs) as never);
      // A count needs no order: the matches are counted, not sorted.
      return { count: (await matching(prepared as PreparedQuery<Doc>)).length, mode: 'fast' };
    },
    getAttachmentData: inner.getAttachmentData.bind(inner),
    ...(inner.getChangedDocumentsSince
      ? {
          async getChangedDocumentsSince(limit: number, checkpoint?: unknown) {
            const result = await inner.getChangedDocumentsSince!(limit, checkpoint);
            return { checkpoint: result.checkpoint, documents: await Promise.all(result.documents.map((doc) => fromStorage(doc as Doc))) };
          },
        }
      : {}),
    changeStream: () => events$.asObservable() as ReturnType<AnyInstance['changeStream']>,
    cleanup: inner.cleanup.bind(inner),
    async close() {
      innerEvents.unsubscribe();
      cache?.stop();
      events$.complete();
      return inner.close();
    },
    async remove() {
      innerEvents.unsubscribe();
      cache?.stop();
      events$.complete();
      return inner.remove();
    },
  };
  // pendingKeys (src/lib/sync/upload/store.ts) reads the pending index of the Dexie storage below.
  (instance as { originalStorageInstance?: AnyInstance }).originalStorageInstance = inner;
  // The client list opens its documents ahead, while its first page is looked at (warmCache.ts).
  if (cache) registerWarmer(instance, async () => void (await cache.all()));
  return instance;
}

/** The top-level conditions of `selector` on clear fields other than RxDB's own, or null when it
 * has none (then nothing narrows the search in IndexedDB). */
function clearConjuncts(selector: Record<string, unknown>, clear: ReadonlySet<string>): Record<string, unknown> | null {
  const found = Object.entries(selector).filter(([name]) => !name.startsWith('$') && !name.startsWith('_') && clear.has(name));
  return found.length ? Object.fromEntries(found) : null;
}

/** The live documents of `inner` matching a selector on clear fields, opened. */
async function readWhere(inner: AnyInstance, selector: Record<string, unknown>, fromStorage: (doc: Doc) => Promise<Doc>): Promise<Doc[]> {
  const schema = inner.schema as unknown as Schema;
  const query = normalizeMangoQuery(schema, { selector: { ...selector, _deleted: { $eq: false } } as never });
  const { documents } = await inner.query(prepareQuery(schema, query));
  return Promise.all(documents.map((doc) => fromStorage(doc as Doc)));
}

/** What the whole read below uses of RxDB's Dexie storage (its instance's `internals`). */
interface DexieInternals {
  dexieTable?: { toArray(): Promise<Record<string, unknown>[]> };
  booleanIndexes?: string[];
}

/** Every live document of `inner`, opened. On RxDB's Dexie storage its table is read in one
 * request (IndexedDB's getAll) rather than through a query's cursor, one step and one event per
 * document: thousands of them for a caseload's clients (docs/performance.md "The offline client
 * list"). */
async function readAll(inner: AnyInstance, fromStorage: (doc: Doc) => Promise<Doc>): Promise<Doc[]> {
  const internals = (await inner.internals) as DexieInternals | undefined;
  const booleanIndexes = internals?.booleanIndexes;
  if (typeof internals?.dexieTable?.toArray !== 'function' || !booleanIndexes) return readWhere(inner, {}, fromStorage);
  const rows = await internals.dexieTable.toArray();
  const live = rows.map((row) => fromDexieToStorage(booleanIndexes, row) as Doc).filter((doc) => !doc._deleted);
  return Promise.all(live.map((doc) => fromStorage(doc)));
}

/**
 * The opened documents of a collection, read once when first asked, then kept up to date by
 * its change events. An event met while the first read runs is applied after it, and only when
 * it is not older than the document read (`_meta.lwt`).
 */
function openedCache(inner: AnyInstance, events$: Observable<Events>, fromStorage: (doc: Doc) => Promise<Doc>) {
  const primary = inner.schema.primaryKey;
  const primaryPath = typeof primary === 'string' ? primary : primary.key;
  let docs: Map<string, Doc> | null = null;
  let loading: Promise<Map<string, Doc>> | null = null;
  const early: RxStorageChangeEvent<Doc>[] = [];

  const apply = (map: Map<string, Doc>, event: RxStorageChangeEvent<Doc>) => {
    const doc = event.documentData;
    const known = map.get(event.documentId);
    if (known && known._meta.lwt > doc._meta.lwt) return;
    if (event.operation === 'DELETE' || doc._deleted) map.delete(event.documentId);
    else map.set(event.documentId, doc);
  };

  const subscription = events$.subscribe((bulk) => {
    for (const event of bulk.events) {
      if (docs) apply(docs, event);
      else if (loading) early.push(event);
    }
  });

  return {
    async all(): Promise<Doc[]> {
      if (!docs) {
        loading ??= readAll(inner, fromStorage).then((read) => {
          const map = new Map(read.map((doc) => [String(doc[primaryPath]), doc]));
          for (const event of early.splice(0)) apply(map, event);
          docs = map;
          return map;
        });
        try {
          await loading;
        } catch (error) {
          loading = null; // a failed read (a locked vault) is tried again next time
          throw error;
        }
      }
      return [...docs!.values()];
    },
    stop: () => subscription.unsubscribe(),
  };
}
