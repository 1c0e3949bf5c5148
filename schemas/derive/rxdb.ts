// RxDB 17 collection schemas derived from the entity declarations, checked against RxDB's
// own rules (rxdb/plugins/dev-mode checkSchema):
// - top-level names must match ^[a-zA-Z](?:[a-zA-Z0-9_]*[a-zA-Z0-9])?$ and may not start with
//   '_' (SC1, SC8), so the sync fields of product.md §D6 are `syncState`, `syncOp`, `syncBase`,
//   `syncAttempts`, `syncError` and `sortDesc` rather than `_syncState` and friends;
// - `deleted` and `synced` are reserved document properties (SC17), so the server's
//   soft-delete fields stay out: a soft-deleted row reaches the device as an RxDB deletion;
// - the primary key and indexed strings need maxLength, indexed numbers minimum, maximum and
//   multipleOf, indexed booleans must be required (SC34-SC39). Dexie leaves documents with an
//   empty indexed field out of that index, so only required fields are indexed.
// RxDB prefers absent fields to nulls, so optional fields are typed without null here.

import type { RxJsonSchema } from 'rxdb';
import type { EntityShape, Field, JsonSchema } from '../define.ts';
import { MAX_INT, UUID_LENGTH, auditFields } from '../define.ts';
import type { DocOf, SyncFields } from './types.ts';
import { fieldSchema } from './json-schema.ts';

/** A property with RxDB's own `final` keyword (not for ajv elsewhere). */
type RxProperty = JsonSchema & { readonly final?: boolean };

/** Name of the string field holding a composite key ([prof_Id, img_for], [srcId, imgNo]). */
export const COMPOSITE_KEY = 'pk';
/** Separator of composite key parts; neither UUIDs nor the enum values contain it. */
export const COMPOSITE_SEPARATOR = '|';

export const SYNC_STATES = ['synced', 'pending'] as const;
export const SYNC_OPS = ['create', 'update'] as const;
export const SYNC_FIELDS = ['syncState', 'syncOp', 'syncBase', 'syncAttempts', 'syncError', 'sortDesc', 'syncRemoveImages'] as const;

/** Largest millisecond time `newestFirstKey` takes (year 2286), 13 digits. */
const MAX_TIME = 9_999_999_999_999;
const TIME_DIGITS = 13;

/**
 * Sort key for newest-first lists in ascending index order. RxDB walks Dexie indexes
 * ascending, so storing (MAX_TIME - createdAt ms) as 13 zero-padded digits makes the newest
 * record sort first; the key appended breaks ties, so the order is total and stable.
 * Records created offline use their local creation time until the server's createdAt arrives.
 */
export function newestFirstKey(time: string | number | Date, key: string): string {
  const ms = time instanceof Date ? time.getTime() : typeof time === 'number' ? time : Date.parse(time);
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_TIME) throw new Error(`newestFirstKey: bad time ${String(time)}`);
  return String(MAX_TIME - Math.floor(ms)).padStart(TIME_DIGITS, '0') + key;
}

/** Longest string form of a value of a key part (for composite keys and sortDesc). */
function keyPartLength(field: Field | undefined): number {
  if (!field) throw new Error('missing key field');
  if (field.kind === 'id') return UUID_LENGTH;
  if (field.kind === 'string') return field.maxLength;
  if (field.kind === 'integer') return String(field.maximum).length;
  if (field.kind === 'enum') return Math.max(...field.values.map((v) => String(v).length));
  throw new Error(`key fields must be ids, strings, integers or enums, not ${field.kind}`);
}

/** Length of the stored primary key (the composite string for two-part keys). */
export function primaryKeyLength(entity: EntityShape): number {
  const parts = entity.keyFields.map((k) => keyPartLength(entity.fields[k]));
  return parts.reduce((a, b) => a + b, 0) + (parts.length - 1) * COMPOSITE_SEPARATOR.length;
}

/** The RxDB property of one field: the API's schema of it, plus the bounds RxDB wants for any
 * field that may be indexed (maxLength on ids, multipleOf on integers, min/max on enums). */
export function rxFieldSchema(field: Field): JsonSchema {
  switch (field.kind) {
    case 'id':
      return { type: 'string', maxLength: UUID_LENGTH };
    case 'integer':
    case 'lookup':
      return { ...fieldSchema(field), multipleOf: 1 };
    case 'enum':
      return enumSchema(field.values);
    default:
      return fieldSchema(field);
  }
}

function enumSchema(values: readonly (string | number)[]): JsonSchema {
  const numbers = values.filter((v): v is number => typeof v === 'number');
  if (numbers.length === values.length) {
    return { type: 'integer', enum: values, minimum: Math.min(...numbers), maximum: Math.max(...numbers), multipleOf: 1 };
  }
  return { type: 'string', enum: values, maxLength: Math.max(...values.map((v) => String(v).length)) };
}

function withDefault(field: Field): JsonSchema {
  const schema = rxFieldSchema(field);
  return 'default' in field && field.default !== undefined ? { ...schema, default: field.default } : schema;
}

/** The image slots a pending update empties on the server (`syncRemoveImages`). */
export function pendingRemovals(doc: Readonly<Record<string, unknown>>): string[] {
  return Array.isArray(doc.syncRemoveImages) ? (doc.syncRemoveImages as string[]) : [];
}

/** What a pending document may empty on the server: a record's image slots (services, jobs),
 * or, for a profile image, its own kind (photo, idDocument, consentForm: a removal made
 * offline of an image the server holds waits on that image's document). */
export function removableSlots(entity: EntityShape): readonly string[] {
  if (entity.images.length) return entity.images;
  const kind = entity.fields.img_for;
  return kind?.kind === 'enum' && entity.keyFields.includes('img_for') ? kind.values.map(String) : [];
}

function syncProperties(entity: EntityShape): Partial<Record<keyof SyncFields, JsonSchema>> {
  const removable = removableSlots(entity);
  const removeImages: JsonSchema = { type: 'array', items: { type: 'string', enum: removable, maxLength: 20 }, maxItems: removable.length };
  // Only records with image slots (services, jobs) and profile images: an offline edit may empty
  // one whose image is on the server, and the upload must say so.
  const slots = removable.length > 0 ? { syncRemoveImages: removeImages } : {};
  return {
    ...slots,
    syncState: { type: 'string', enum: SYNC_STATES, maxLength: 7 },
    syncOp: { type: 'string', enum: SYNC_OPS, maxLength: 6 },
    syncBase: { type: 'string', format: 'date-time', maxLength: 40 },
    syncAttempts: { type: 'integer', minimum: 0, maximum: MAX_INT, multipleOf: 1, default: 0 },
    syncError: { type: 'string', maxLength: 2000 },
    sortDesc: { type: 'string', maxLength: TIME_DIGITS + primaryKeyLength(entity) },
  };
}

/** Document properties: fields (including browser-only ones, never write-only ones), the
 * audit fields of the server copy, the sync fields and, for two-part keys, the key string. */
function rxProperties(entity: EntityShape): Record<string, RxProperty> {
  const fields = Object.entries(entity.fields).filter(([, field]) => !field.writeOnly && !field.hidden);
  const keyed = entity.keyFields.length > 1;
  // RxDB wants the parts of a composite key final (never changed after insert).
  const final = (name: string, schema: JsonSchema): RxProperty =>
    keyed && entity.keyFields.includes(name) ? { ...schema, final: true } : schema;
  return {
    ...(keyed ? { [COMPOSITE_KEY]: { type: 'string', maxLength: primaryKeyLength(entity) } } : {}),
    ...Object.fromEntries(fields.map(([name, field]) => [name, final(name, withDefault(field))])),
    ...(entity.server ? Object.fromEntries(Object.entries(auditFields).map(([n, fd]) => [n, rxFieldSchema(fd)])) : {}),
    ...syncProperties(entity),
  };
}

/** Indexes: newest-first, pending-first (what the upload engine and offline home count),
 * children of a parent, and each required list filter, each ending in sortDesc so that a
 * filtered list comes out newest first without sorting in memory. */
export function rxIndexes(entity: EntityShape): string[][] {
  const required = new Set(
    Object.entries(entity.fields)
      .filter(([, fd]) => fd.required && !fd.writeOnly && !fd.hidden)
      .map(([n]) => n),
  );
  const parent = entity.parent ? [entity.parent.field] : [];
  const filters = (entity.list?.filters ?? []).filter((name) => required.has(name));
  const leading = [...new Set([...parent, ...filters])];
  return [['sortDesc'], ['syncState', 'sortDesc'], ...leading.map((name) => [name, 'sortDesc'])];
}

/** The RxDB schema of an offline entity's collection. */
export function rxSchema<E extends EntityShape>(entity: E): RxJsonSchema<DocOf<E>> {
  if (!entity.offline) throw new Error(`${entity.name} is not an offline collection`);
  const keyed = entity.keyFields.length > 1;
  const required = [
    ...(keyed ? [COMPOSITE_KEY] : []),
    ...Object.entries(entity.fields)
      .filter(([, field]) => field.required && !field.writeOnly && !field.hidden)
      .map(([name]) => name),
    'syncState',
    'syncAttempts',
    'sortDesc',
  ];
  const schema = {
    title: entity.table,
    description: entity.label,
    version: entity.rxVersion,
    primaryKey: keyed ? { key: COMPOSITE_KEY, fields: entity.keyFields, separator: COMPOSITE_SEPARATOR } : entity.keyFields[0],
    type: 'object',
    properties: rxProperties(entity),
    required,
    indexes: rxIndexes(entity),
    additionalProperties: false,
  };
  // One cast: RxJsonSchema's mapped property types cannot follow a schema built at run time.
  return schema as unknown as RxJsonSchema<DocOf<E>>;
}

/** A server row as an RxDB document (product.md §D6 "synced"): nulls and server-only fields
 * dropped, sync fields added. The caller maps a soft-deleted row to an RxDB deletion. */
export function docFromRow<E extends EntityShape>(entity: E, row: Readonly<Record<string, unknown>>): DocOf<E> {
  const allowed = new Set(Object.keys(rxProperties(entity)));
  const doc: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) if (value !== null && value !== undefined && allowed.has(name)) doc[name] = value;
  const key = entity.keyFields.map((k) => String(row[k])).join(COMPOSITE_SEPARATOR);
  if (entity.keyFields.length > 1) doc[COMPOSITE_KEY] = key;
  const created = typeof row.createdAt === 'string' || row.createdAt instanceof Date ? row.createdAt : Date.now();
  return { ...doc, syncState: 'synced', syncAttempts: 0, sortDesc: newestFirstKey(created, key) } as unknown as DocOf<E>;
}

/** A document as a request body: only the entity's own fields (sync fields, the composite
 * key string, audit fields and browser-only data removed). */
export function bodyFromDoc(entity: EntityShape, doc: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(entity.fields)) {
    if (doc[name] !== undefined && !field.readOnly && !field.clientOnly) body[name] = doc[name];
  }
  return body;
}
