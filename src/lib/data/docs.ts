// RxDB documents of the data layer: server rows as `synced` copies, local saves as `pending`
// ones (product.md §D6), and the one rule every write of a server copy obeys: a local `pending`
// document is never overwritten, because it holds work not yet on the server.
import type { RxCollection, RxDocument, RxDocumentData, RxStorageBulkWriteResponse } from 'rxdb';
import type { EntityShape } from '../../../schemas/define';
import { COMPOSITE_KEY, COMPOSITE_SEPARATOR, docFromRow, newestFirstKey, pendingRemovals } from '../../../schemas/derive/rxdb';
import { collectionOf, type IcrsDatabase } from '../store';
import type { Values } from './types';

export type DocData = Record<string, unknown>;

/** The stored key of a record: the key field, or the composite `a|b` string. */
export function keyOf(entity: EntityShape, values: Values): string {
  return entity.keyFields.map((k) => String(values[k] ?? '')).join(COMPOSITE_SEPARATOR);
}

/** A server row as a `synced` document. Browser-only required fields (profile image bytes)
 * are not on the server: an empty string stands for "bytes on the server". */
export function syncedDoc(entity: EntityShape, row: Values): DocData {
  const doc = docFromRow(entity, row) as unknown as DocData;
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.clientOnly && field.required && doc[name] === undefined) doc[name] = '';
  }
  return doc;
}

/** The entity's own fields of `values` as document data: nulls and unknown names left out
 * (RxDB prefers absent fields), never passwords. */
export function docFields(entity: EntityShape, values: Values): DocData {
  const out: DocData = {};
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.writeOnly || field.hidden) continue;
    if (values[name] !== null && values[name] !== undefined) out[name] = values[name];
  }
  return out;
}

let lastCreation = 0;

/** The local time of a new record, a millisecond after the previous one at least: records
 * made in the same millisecond (a bulk save) still list newest first, as on the server, where
 * the tie would otherwise fall to the key in the wrong direction. */
function creationTime(): number {
  lastCreation = Math.max(Date.now(), lastCreation + 1);
  return lastCreation;
}

/** A record saved on this device and not uploaded yet: its key was made here, and it sorts
 * by the local time until the server's createdAt arrives. */
export function pendingCreateDoc(entity: EntityShape, values: Values, now = creationTime()): DocData {
  const key = keyOf(entity, values);
  const doc: DocData = { ...withDefaults(entity, docFields(entity, values)), syncState: 'pending', syncOp: 'create', syncAttempts: 0 };
  if (entity.keyFields.length > 1) doc[COMPOSITE_KEY] = key;
  doc.sortDesc = newestFirstKey(now, key);
  return doc;
}

/** `current` with `values` applied: null removes a field, read-only and browser-only
 * fields are not the form's to change. */
export function patched(entity: EntityShape, current: DocData, values: Values): DocData {
  const next: DocData = { ...current };
  for (const [name, field] of Object.entries(entity.fields)) {
    if (!(name in values) || field.readOnly || field.writeOnly || field.hidden || entity.keyFields.includes(name)) continue;
    if (values[name] === null || values[name] === undefined) delete next[name];
    else next[name] = values[name];
  }
  return next;
}

/** What an offline edit did beyond its values. */
export interface OfflineEdit {
  /** The version the edit was made on (see DataLayer.update). */
  basedOn?: string;
  /** Image slots the edit emptied. */
  emptied?: readonly string[];
  /** Image slots the edit filled with a new image (which replaces the server's anyway). */
  filled?: readonly string[];
}

/** The slots the upload must empty on the server: those emptied before, and those emptied now
 * whose image the server has (the copy names one), less the slots filled again. A record the
 * server has never seen has nothing there to empty. */
function serverRemovals(current: DocData, edit: OfflineEdit): string[] {
  if (current.syncState === 'pending' && current.syncOp === 'create') return [];
  const before = pendingRemovals(current);
  const now = (edit.emptied ?? []).filter((slot) => current[slot] !== undefined && current[slot] !== null);
  return [...new Set([...before, ...now])].filter((slot) => !edit.filled?.includes(slot));
}

/** An offline edit of `current`: a pending create stays a create (the server has never seen
 * it); a synced copy becomes a pending update based on `edit.basedOn` (the version the edit was
 * made on), else on the copy's own updatedAt. Emptied slots the server holds are listed in
 * `syncRemoveImages` for the upload. */
export function pendingUpdate(entity: EntityShape, current: DocData, values: Values, edit: OfflineEdit = {}): DocData {
  const next = patched(entity, current, values);
  // The local copy stops naming an emptied slot's server image (it is read-only to `patched`).
  for (const slot of edit.emptied ?? []) delete next[slot];
  const removals = serverRemovals(current, edit);
  if (removals.length) next.syncRemoveImages = removals;
  else delete next.syncRemoveImages;
  if (current.syncState === 'pending') return next;
  const version = edit.basedOn ?? current.updatedAt;
  const base = typeof version === 'string' ? { syncBase: version } : {};
  return { ...next, ...base, syncState: 'pending', syncOp: 'update', syncAttempts: 0 };
}

export function plain(doc: RxDocument<unknown>): DocData {
  return doc.toMutableJSON() as DocData;
}

export function isPending(doc: { syncState?: unknown } | null | undefined): boolean {
  return doc?.syncState === 'pending';
}

/** True when `held` is the same version of the row as `row`, or a newer one (by the server's
 * `updatedAt`): writing `row` would only wake every live query, or put an older version back
 * (a list's answer or a pull overtaken by a newer one). */
export function heldIsSameOrNewer(held: Readonly<Record<string, unknown>>, row: Readonly<Record<string, unknown>>): boolean {
  const next = timeOf(row.updatedAt);
  const current = timeOf(held.updatedAt);
  return next !== undefined && current !== undefined && next <= current;
}

function timeOf(value: unknown): number | undefined {
  const time = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(time) ? undefined : time;
}

/** A synced copy as new as the server's row: kept as it is. */
function unchanged(current: DocData, next: DocData): boolean {
  return current.syncState === 'synced' && heldIsSameOrNewer(current, next);
}

/** A stored document: its data with RxDB's metadata. */
export type StoredDoc = RxDocumentData<DocData>;

/** What a write of a server copy does to the stored document it meets. */
export type WriteDecision = { kind: 'keep' } | { kind: 'hold' } | { kind: 'write'; document: StoredDoc };

/** `doc` as the stored document that replaces `stored` (none: a new document). */
export function storedDoc(doc: DocData, stored: StoredDoc | undefined): StoredDoc {
  return { ...doc, _deleted: doc._deleted === true, _attachments: {}, _meta: { lwt: Date.now() }, _rev: stored?._rev ?? '' } as StoredDoc;
}

/** A bulk write's conflicts (another writer came first), with the document each met; any
 * other error is thrown. */
function conflictsOf(result: RxStorageBulkWriteResponse<DocData>): { key: string; stored: StoredDoc | undefined }[] {
  const other = result.error.find((e) => e.status !== 409);
  if (other) throw new Error(`write of ${other.documentId} failed: ${other.status}`);
  return result.error.map((e) => ({ key: e.documentId, stored: 'documentInDb' in e ? (e.documentInDb as StoredDoc) : undefined }));
}

/**
 * Writes server copies by compare-and-set (docs/offline-contract.md "Pull replication"): each
 * copy is decided on the stored state and written with that state as `previous`. A document
 * changed in between (the upload engine, an edit) makes RxDB refuse that write, and the copy is
 * decided again on the state the refusal names (read inside the refused write's transaction),
 * so no decision ever rests on a stale read. A write that changes nothing is never made either:
 * it would give a pending document a new revision, and the engine settles a record only at the
 * revision it uploaded. Answers the copies `decide` held.
 *
 * A copy that would be written as a new document is first written as one, with no read before
 * (an insert: the storage refuses it when the document is there, deleted or not, and names what
 * it met): a first pull fills an empty store with one transaction per piece instead of two
 * (docs/performance.md "The caseload at 4×"). A deletion, which writes nothing on an absent
 * document, is decided on the state read first.
 */
export async function compareAndSet(
  collection: RxCollection<DocData>,
  docs: readonly DocData[],
  decide: (stored: StoredDoc | undefined, doc: DocData) => WriteDecision,
): Promise<DocData[]> {
  const primary = collection.schema.primaryPath as string;
  const byKey = new Map(docs.map((doc) => [String(doc[primary]), doc])); // the last copy of a key wins
  const held: DocData[] = [];
  type Write = { previous?: StoredDoc; document: StoredDoc };
  const write = async (writes: Write[]) =>
    writes.length ? conflictsOf(await collection.storageInstance.bulkWrite(writes, 'icrs-server-copy')) : [];
  const inserts: Write[] = [];
  const toRead: string[] = [];
  for (const [key, doc] of byKey) {
    const decision = doc._deleted === true ? undefined : decide(undefined, doc);
    if (decision?.kind === 'write') inserts.push({ document: decision.document });
    else toRead.push(key);
  }
  // Refused inserts come back with the document met: decided on it, as if read.
  let met = await write(inserts);
  let keys = toRead;
  while (keys.length || met.length) {
    const found = keys.length ? await collection.storageInstance.findDocumentsById(keys, true) : [];
    const stored = new Map<string, StoredDoc | undefined>(found.map((d) => [String(d[primary as keyof StoredDoc]), d]));
    for (const conflict of met) stored.set(conflict.key, conflict.stored);
    const writes: Write[] = [];
    for (const key of [...keys, ...met.map((m) => m.key)]) {
      const doc = byKey.get(key) as DocData;
      const previous = stored.get(key);
      const decision = decide(previous, doc);
      if (decision.kind === 'hold') held.push(doc);
      if (decision.kind === 'write') writes.push(previous ? { previous, document: decision.document } : { document: decision.document });
    }
    // A refusal without the document met (never from RxDB's storages) is read again.
    const refused = await write(writes);
    met = refused.filter((r) => r.stored);
    keys = refused.filter((r) => !r.stored).map((r) => r.key);
  }
  return held;
}

export interface WriteSyncedOptions {
  /** The rows answer a save of this very device: they replace its pending copy. */
  replacePending?: boolean;
  /** Only rows the device holds already are written (a read online on a device that mirrors
   * the entity by members: schemas/scope.ts `mirrorsByMembers`). */
  heldOnly?: boolean;
}

/**
 * Writes server rows into `entity`'s collection as `synced` documents, leaving every local
 * `pending` document as it is (unless `replacePending`). Answers the stored keys in the
 * order of `rows`.
 */
export async function writeSynced(
  db: IcrsDatabase,
  entity: EntityShape,
  rows: readonly Values[],
  options: WriteSyncedOptions = {},
): Promise<string[]> {
  const replace = options.replacePending === true;
  const docs = rows.map((row) => syncedDoc(entity, row));
  await compareAndSet(collectionOf(db, entity), docs, (stored, doc) => {
    const live = stored && !stored._deleted ? (stored as DocData) : undefined;
    if (!live && options.heldOnly === true) return { kind: 'keep' };
    if (live && ((!replace && isPending(live)) || unchanged(live, doc))) return { kind: 'keep' };
    return { kind: 'write', document: storedDoc(doc, stored) };
  });
  return docs.map((doc) => keyOf(entity, doc));
}

/** Declared defaults of missing fields (a new service is pending, a job open): the server
 * fills them on upload, the local copy needs them now for its lists and schema. */
export function withDefaults(entity: EntityShape, doc: DocData): DocData {
  const out = { ...doc };
  for (const [name, field] of Object.entries(entity.fields)) {
    if (out[name] === undefined && 'default' in field && field.default !== undefined) out[name] = field.default;
  }
  return out;
}
