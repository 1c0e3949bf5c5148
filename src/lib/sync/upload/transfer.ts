// Rescue of a broken device's work (ADR-0018): its pending records, with their images, to a
// JSON file, and that file into another device's store, where the next upload sends them. Keys
// travel unchanged, so a record the first device did manage to upload is a 'duplicate entry'.
import type { EntityShape } from '../../../../schemas/define';
import { COMPOSITE_KEY } from '../../../../schemas/derive/rxdb';
import { file as fileEntity } from '../../../../schemas';
import type { IcrsDatabase } from '../../store';
import { collection, imagesOfMany, localKey, pendingDocs, uploadKind, UPLOAD_KINDS, type DocData } from './store';
import { erasedOf } from './sync-error';
import type { ImportResult } from './types';

export const EXPORT_FORMAT = 'icrs-pending';
export const EXPORT_VERSION = 1;

export interface PendingExport {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  /** Pending documents by product.md §3 table (profile images carry their bytes). */
  records: Record<string, DocData[]>;
  /** The `files` documents (job and service images, base64) of those records. */
  files: DocData[];
}

/** The pending records and their images as a JSON document. Records whose client was erased on
 * the server are left out: they are only ever discarded, and no copy of them is made
 * (docs/security.md "Erased means gone"). */
export async function exportPending(db: IcrsDatabase): Promise<string> {
  const records: Record<string, DocData[]> = {};
  const files: DocData[] = [];
  for (const entity of UPLOAD_KINDS) {
    const docs = (await pendingDocs(db, entity)).filter((d) => !erasedOf(d.get('syncError')));
    records[entity.table] = docs.map((d) => d.toMutableJSON() as DocData);
    const images = await imagesOfMany(
      db,
      entity,
      docs.map((d) => d.primary),
    );
    for (const doc of docs) files.push(...(images.get(doc.primary) ?? []).map((f) => f.toMutableJSON() as DocData));
  }
  const document: PendingExport = { format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: new Date().toISOString(), records, files };
  return JSON.stringify(document);
}

/**
 * Adds the records of an export as pending. A key this device holds as pending work is left
 * alone (skipped); a key it holds only as a server copy is replaced, since the export's version
 * carries edits the server has not seen. Every document is checked before anything is written.
 */
export async function importPending(db: IcrsDatabase, json: string): Promise<ImportResult> {
  const parsed = parseExport(json);
  const batches = Object.entries(parsed.records).map(([table, docs]) => {
    const entity = uploadKind(table);
    return { entity, docs: docs.map((d) => cleanDoc(db, entity, d, true)) };
  });
  const images = parsed.files.map((d) => cleanDoc(db, fileEntity, d, false));
  let imported = 0;
  let skipped = 0;
  for (const { entity, docs } of batches) {
    const written = await writeNew(db, entity, docs, true);
    imported += written;
    skipped += docs.length - written;
  }
  return { imported, skipped, images: await writeNew(db, fileEntity, images, false) };
}

function parseExport(json: string): PendingExport {
  let parsed: Partial<PendingExport>;
  try {
    parsed = JSON.parse(json) as Partial<PendingExport>;
  } catch {
    throw new Error('not an icrs-pending export: not JSON');
  }
  if (parsed?.format !== EXPORT_FORMAT) throw new Error('not an icrs-pending export');
  if (parsed.version !== EXPORT_VERSION) throw new Error(`icrs-pending export version ${String(parsed.version)} is not supported`);
  if (!parsed.records || typeof parsed.records !== 'object' || !Array.isArray(parsed.files))
    throw new Error('icrs-pending export without records');
  return parsed as PendingExport;
}

/** Only the collection's own properties, the key string rebuilt, and (for records) a fresh
 * pending state: attempts and errors belonged to the other device. */
function cleanDoc(db: IcrsDatabase, entity: EntityShape, raw: unknown, pending: boolean): DocData {
  if (!raw || typeof raw !== 'object') throw new Error(`${entity.table}: a record is not an object`);
  const schema = collection(db, entity).schema.jsonSchema;
  // RxDB adds its own meta properties (_rev, _meta, …) to the schema it keeps: never imported.
  const own = (name: string) => !name.startsWith('_');
  const allowed = new Set(Object.keys(schema.properties).filter(own));
  const doc: DocData = Object.fromEntries(Object.entries(raw).filter(([k, v]) => allowed.has(k) && v !== null && v !== undefined));
  if (entity.keyFields.length > 1) doc[COMPOSITE_KEY] = localKey(entity, doc);
  if (pending) {
    doc.syncState = 'pending';
    doc.syncOp = doc.syncOp === 'update' ? 'update' : 'create';
    doc.syncAttempts = 0;
    delete doc.syncError;
  }
  const missing = (schema.required ?? []).map(String).filter((name) => own(name) && doc[name] === undefined);
  if (missing.length) throw new Error(`${entity.table} ${localKey(entity, doc)}: missing ${missing.join(', ')}`);
  return doc;
}

/** Writes the documents whose key is free (or, for records, held only as a server copy). */
async function writeNew(db: IcrsDatabase, entity: EntityShape, docs: DocData[], replaceSynced: boolean): Promise<number> {
  if (!docs.length) return 0;
  const target = collection(db, entity);
  const existing = await target.findByIds(docs.map((d) => localKey(entity, d))).exec();
  const fresh = docs.filter((d) => {
    const held = existing.get(localKey(entity, d));
    return !held || (replaceSynced && held.syncState !== 'pending');
  });
  if (!fresh.length) return 0;
  const result = await target.bulkUpsert(fresh);
  if (result.error.length) throw new Error(`${entity.table}: ${result.error.length} records could not be stored`);
  return result.success.length;
}
