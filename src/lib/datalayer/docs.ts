// RxDB documents of the data layer: server rows as `synced` copies, local saves as `pending`
// ones (design.md §6), and the one rule every write of a server copy obeys: a local `pending`
// document is never overwritten, because it holds work not yet on the server.
import type { RxDocument } from 'rxdb';
import type { EntityShape } from '../../../schemas/define';
import { COMPOSITE_KEY, COMPOSITE_SEPARATOR, docFromRow, newestFirstKey, pendingRemovals } from '../../../schemas/derive/rxdb';
import { collectionOf, type IcrsCollection, type IcrsDatabase } from '../db/database';
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

/** A record saved on this device and not uploaded yet: its key was made here, and it sorts
 * by the local time until the server's createdAt arrives. */
export function pendingCreateDoc(entity: EntityShape, values: Values, now = Date.now()): DocData {
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

/** The server copy is already stored: writing it again would only wake every live query. */
function unchanged(current: DocData, next: DocData): boolean {
  return current.syncState === 'synced' && current.updatedAt !== undefined && current.updatedAt === next.updatedAt;
}

async function modifyUnlessPending(doc: RxDocument<unknown>, next: DocData, replacePending: boolean): Promise<void> {
  // incrementalModify runs on the newest stored state, so an offline edit that lands between
  // our read and this write is seen here and kept.
  await doc.incrementalModify((current: unknown) => (!replacePending && isPending(current as DocData) ? current : next));
}

export interface WriteSyncedOptions {
  /** The rows answer a save of this very device: they replace its pending copy. */
  replacePending?: boolean;
}

/**
 * Writes server rows into `entity`'s collection as `synced` documents, leaving every local
 * `pending` document as it is (unless `replacePending`). Answers the stored keys in the
 * order of `rows`.
 */
export async function writeSynced(db: IcrsDatabase, entity: EntityShape, rows: readonly Values[], options: WriteSyncedOptions = {}): Promise<string[]> {
  const collection = collectionOf(db, entity);
  const replace = options.replacePending === true;
  const docs = rows.map((row) => syncedDoc(entity, row));
  const keys = docs.map((doc) => keyOf(entity, doc));
  const existing = await collection.findByIds(keys).exec();
  const fresh = docs.filter((_, i) => !existing.has(keys[i] as string));
  const inserted = fresh.length ? await collection.bulkInsert(fresh) : { error: [] };
  const retry = new Set(inserted.error.map((e) => e.documentId)); // inserted meanwhile by another writer
  await Promise.all(
    docs.map(async (doc, i) => {
      const key = keys[i] as string;
      const current = existing.get(key) ?? (retry.has(key) ? await collection.findOne(key).exec() : null);
      if (!current || (!replace && isPending(current)) || unchanged(plain(current), doc)) return;
      await modifyUnlessPending(current, doc, replace);
    }),
  );
  return keys;
}

/** Documents of `keys` in that order (missing ones left out). */
export async function docsInOrder(collection: IcrsCollection, keys: readonly string[]): Promise<DocData[]> {
  const found = await collection.findByIds([...keys]).exec();
  return keys.flatMap((key) => {
    const doc = found.get(key);
    return doc ? [plain(doc)] : [];
  });
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
