// The entity DSL: every entity of product.md §D3 is declared once with `defineEntity`, and the
// SQL tables, JSON schemas, RxDB schemas and TypeScript types are derived from that
// declaration (see ./derive). This file holds only data and types, no I/O, so that both the
// browser and the server can import it.

import type { Permission } from './roles.ts';

// ---------------------------------------------------------------------------------------------
// Shared constants
// ---------------------------------------------------------------------------------------------

/** Lookup lists the entities refer to (product.md §D3 "list"). The server seeds exactly these. */
export const LOOKUP_KEYS = [
  'territory',
  'category',
  'serviceType',
  'sector',
  'organisation',
  'educationLevel',
  'skill',
  'orgHelp',
  'trade',
  'vocField',
] as const;
export type LookupKey = (typeof LOOKUP_KEYS)[number];

/** Lists whose items have a natural order (levels): offered in the list's own order, the one its
 * administrator keeps, not alphabetically (docs/adr/0048-first-day-screens.md "Lists in their natural order"). */
export const ORDERED_LOOKUPS: readonly LookupKey[] = ['educationLevel'];

/** Any UUID in canonical lower-case form. Keys are UUIDv7 (ids.ts), but a v4 from another
 * client is harmless, so the version nibble is not checked. Lower case only, so that one
 * record can never exist under two spellings of its key. */
export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
export const UUID_LENGTH = 36;

/** Loose international phone number: digits, spaces, dots, dashes, brackets, optional '+'. */
export const PHONE_PATTERN = '^\\+?[0-9 ().-]{6,24}$';

/** Upper bound of a lookup item id (PostgreSQL integer). */
export const MAX_INT = 2_147_483_647;

// ---------------------------------------------------------------------------------------------
// Minimal JSON schema type (the subset the derivations emit; plain ajv keywords only)
// ---------------------------------------------------------------------------------------------

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export interface JsonSchema {
  readonly type?: JsonType | readonly JsonType[];
  readonly description?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly propertyNames?: JsonSchema;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly multipleOf?: number;
  readonly enum?: readonly (string | number | boolean | null)[];
  readonly default?: unknown;
  /** Properties that need others beside them (draft-07). */
  readonly dependencies?: Readonly<Record<string, readonly string[]>>;
}

// ---------------------------------------------------------------------------------------------
// Fields
// ---------------------------------------------------------------------------------------------

export type StringFormat = 'email' | 'phone' | 'date' | 'date-time';

/** Flags every field kind accepts. */
export interface FieldFlags {
  /** NOT NULL in the table, required in create bodies unless a default fills it. */
  readonly required?: boolean;
  /** Set by the server only (status, verification, image names, audit): in rows, never in bodies. */
  readonly readOnly?: boolean;
  /** Accepted in bodies, never returned, and no column: the server keeps something derived
   * from it instead (password → passwordHash). */
  readonly writeOnly?: boolean;
  /** A column the server keeps to itself (passwordHash): never in bodies, rows or RxDB. */
  readonly hidden?: boolean;
  /** Lives in the browser only (image bytes awaiting upload): no column, not in the API. */
  readonly clientOnly?: boolean;
  readonly unique?: boolean;
  /** Cannot change once set (prof_Reg_No): an update may repeat the stored value, a different
   * one is refused (400); the form shows it read-only when editing. */
  readonly immutable?: boolean;
  /** Names or describes a client (names, numbers, free text about them): what a client's
   * erasure blanks (ADR-0036, server/plugins/audit/erasure.ts). */
  readonly personal?: boolean;
  /** Translation key of the label; `defineEntity` fills `field.<entity>.<field>` when absent. */
  readonly label?: string;
}

/** A UUID: the entity's own key, or a reference to another entity's key (`ref`). */
export interface IdField extends FieldFlags {
  readonly kind: 'id';
  /** Name of the referenced entity: a foreign key to its primary key. */
  readonly ref?: string;
}

/** How far from today a calendar date may lie, in whole years before and after (0: not after
 * today). Dates outside are impossible (a birth date in the future), refused by the forms and by
 * the server alike (./dates.ts). */
export interface DateRange {
  readonly pastYears: number;
  readonly futureYears: number;
}

export interface StringField extends FieldFlags {
  readonly kind: 'string';
  /** Dates only: the range relative to today a value must fall in. */
  readonly range?: DateRange;
  readonly minLength?: number;
  readonly maxLength: number;
  readonly pattern?: string;
  readonly format?: StringFormat;
  readonly default?: string;
  /** For date-time columns filled by the database (createdAt, updatedAt). */
  readonly defaultNow?: boolean;
  /** A valid value, required with `pattern` so that samples and docs can show one. */
  readonly example?: string;
}

export interface IntegerField extends FieldFlags {
  readonly kind: 'integer';
  readonly minimum: number;
  readonly maximum: number;
  readonly default?: number;
}

export interface NumberField extends FieldFlags {
  readonly kind: 'number';
  readonly minimum: number;
  readonly maximum: number;
  readonly default?: number;
}

export interface BooleanField extends FieldFlags {
  readonly kind: 'boolean';
  readonly default?: boolean;
}

/** The integer id of an item of a lookup list (lists.items[].id). */
export interface LookupField extends FieldFlags {
  readonly kind: 'lookup';
  readonly list: LookupKey;
  /** 0 means "none" (user.location: 0 = no organisation). */
  readonly allowNone?: boolean;
  readonly default?: number;
}

/** A fixed set of values. `names` gives each value a stable name for translation keys
 * (`enum.<entity>.<field>.<name>`); string values are their own names. */
export interface EnumField extends FieldFlags {
  readonly kind: 'enum';
  readonly values: readonly (string | number)[];
  readonly names?: readonly string[];
  readonly default?: string | number;
}

export interface LatLngField extends FieldFlags {
  readonly kind: 'lat' | 'lng';
}

/** Structured data kept as one jsonb column. `T` is the TypeScript type of the value; the
 * phantom `_type` member only carries it to the type derivations and is never set. */
export interface JsonField<T = unknown> extends FieldFlags {
  readonly kind: 'json';
  readonly schema: JsonSchema;
  /** The value is a list of item ids of this lookup list (a client's skills): forms offer a
   * choice of several items, pages show their labels. */
  readonly itemsOf?: LookupKey;
  readonly _type?: () => T;
}

/** An image slot of a record (sp_img1..3, jb_img1..3). The bytes live in an image table the
 * server owns; the row keeps the stored file's name, set by the server when it arrives. */
export interface ImageField extends FieldFlags {
  readonly kind: 'image';
}

export type Field =
  IdField | StringField | IntegerField | NumberField | BooleanField | LookupField | EnumField | LatLngField | JsonField | ImageField;

export type FieldKind = Field['kind'];
export type FieldMap = Readonly<Record<string, Field>>;

type Options<F> = Omit<F, 'kind'>;
type Built<K extends FieldKind, O> = { readonly kind: K } & O;
type DateShape = { readonly maxLength: 10; readonly format: 'date' };
type DateTimeShape = { readonly maxLength: 40; readonly format: 'date-time' };

/** Field builders. `const` type parameters keep literal flags (`required: true`) and enum
 * values so that ./derive/types.ts can infer exact row types from the declarations. */
export const f = {
  id: <const O extends Options<IdField> = Record<never, never>>(o?: O) => ({ kind: 'id', ...o }) as Built<'id', O>,
  string: <const O extends Options<StringField>>(o: O) => ({ kind: 'string', ...o }) as Built<'string', O>,
  /** A calendar date 'YYYY-MM-DD' (PostgreSQL `date`), within `range` of today when given. */
  date: <const O extends Options<FieldFlags> & { readonly range?: DateRange } = Record<never, never>>(o?: O) =>
    ({ kind: 'string', maxLength: 10, format: 'date', ...o }) as unknown as Built<'string', O & DateShape>,
  /** An instant in ISO 8601 (PostgreSQL `timestamptz`). */
  dateTime: <const O extends Options<FieldFlags> = Record<never, never>>(o?: O) =>
    ({ kind: 'string', maxLength: 40, format: 'date-time', ...o }) as unknown as Built<'string', O & DateTimeShape>,
  integer: <const O extends Options<IntegerField>>(o: O) => ({ kind: 'integer', ...o }) as Built<'integer', O>,
  number: <const O extends Options<NumberField>>(o: O) => ({ kind: 'number', ...o }) as Built<'number', O>,
  boolean: <const O extends Options<BooleanField> = Record<never, never>>(o?: O) => ({ kind: 'boolean', ...o }) as Built<'boolean', O>,
  lookup: <const O extends Options<LookupField>>(o: O) => ({ kind: 'lookup', ...o }) as Built<'lookup', O>,
  enum: <const O extends Options<EnumField>>(o: O) => ({ kind: 'enum', ...o }) as Built<'enum', O>,
  lat: <const O extends Options<LatLngField> = Record<never, never>>(o?: O) => ({ kind: 'lat', ...o }) as Built<'lat', O>,
  lng: <const O extends Options<LatLngField> = Record<never, never>>(o?: O) => ({ kind: 'lng', ...o }) as Built<'lng', O>,
  /** Curried so that the value type is given explicitly and the options stay inferred:
   * `f.json<BspData>()({ schema })`. */
  json:
    <T>() =>
    <const O extends Options<JsonField<T>>>(o: O) =>
      ({ kind: 'json', ...o }) as Built<'json', O> & JsonField<T>,
  image: <const O extends Options<ImageField> = Record<never, never>>(o?: O) =>
    ({ kind: 'image', readOnly: true, ...o }) as Built<'image', O & { readOnly: true }>,
};

/** Text of at most `max` characters; the common case of `f.string`. */
export const text = <const O extends Options<FieldFlags> = Record<never, never>>(max: number, o?: O) =>
  ({ kind: 'string', maxLength: max, ...o }) as Built<'string', O & { maxLength: number }>;

// ---------------------------------------------------------------------------------------------
// System fields (product.md §D2): added by defineEntity, never declared per entity
// ---------------------------------------------------------------------------------------------

/** Audit fields of every server row. */
export const auditFields = {
  createdAt: f.dateTime({ required: true, readOnly: true, defaultNow: true, label: 'field.system.createdAt' }),
  updatedAt: f.dateTime({ required: true, readOnly: true, defaultNow: true, label: 'field.system.updatedAt' }),
  createdBy: f.id({ readOnly: true, label: 'field.system.createdBy' }),
  updatedBy: f.id({ readOnly: true, label: 'field.system.updatedBy' }),
} as const;

/** Soft-delete fields of entities the spec deletes with a reason (product.md §5, §7). */
export const softDeleteFields = {
  deleted: f.boolean({ required: true, readOnly: true, default: false, label: 'field.system.deleted' }),
  deleteReason: text(500, { readOnly: true, label: 'field.system.deleteReason' }),
  deletedBy: f.id({ readOnly: true, label: 'field.system.deletedBy' }),
  deletedAt: f.dateTime({ readOnly: true, label: 'field.system.deletedAt' }),
} as const;

export type AuditFields = typeof auditFields;
export type SoftDeleteFields = typeof softDeleteFields;

// ---------------------------------------------------------------------------------------------
// Entities
// ---------------------------------------------------------------------------------------------

export type SortDir = 'asc' | 'desc';
export type SystemSortField = 'createdAt' | 'updatedAt';

/** How the entity's list endpoint pages, filters and searches. */
export interface ListConfig<K extends string = string> {
  /** Query parameters named like the field, compared for equality. */
  readonly filters: readonly K[];
  /** Text fields the `q` search looks in (case-insensitive substring). */
  readonly search: readonly K[];
  readonly defaultSort: { readonly field: K | SystemSortField; readonly dir: SortDir };
  /** Field `dateFrom`/`dateTo` bound; createdAt when absent. */
  readonly dateField?: K | 'createdAt';
  /** The orders the entity's list screen offers (its columns): each, like the default order, is
   * served by an index (server/lib/records/listIndexes.ts), and so is the `search`. Absent: the
   * default order alone (lists no screen shows, or small ones). */
  readonly sorts?: readonly (K | SystemSortField)[];
}

/** product.md §7 routes some entities have besides list, get, create and update. */
export interface RestRoutes {
  /** POST `<rest><search>` takes the list filters in its body (e.g. '/search/', '/srch'). */
  readonly search?: string;
  /** GET `<rest><byParent>/{parentId}` lists the children of one parent (e.g. '/jb', '/spd'). */
  readonly byParent?: string;
  /** POST creates or updates the one record keyed by its parent (profile sub-records). */
  readonly upsert?: boolean;
}

/** Whose record it is (organisation scope, schemas/scope.ts). A root entity names the field
 * holding the owning organisation (a read-only `location`, filled from the creating user)
 * and who reads it: `own` (client data: the owner only) or `all` (providers, jobs: every role
 * the matrix allows; changes stay with the owner). A child is owned as its parent is
 * (`via: 'parent'`, through the parent key). `null`: not organisation data (lookup lists), or
 * scoped by a module of its own (users: server/plugins/users/scope.ts). */
export type OwnerInput<K extends string = string> =
  { readonly field: K; readonly reads: 'own' | 'all' } | { readonly via: 'parent' } | null;

/** Offline upload (product.md §4, §8). */
export interface UploadConfig {
  /** Place in the upload order: parents before children. */
  readonly order: number;
  /** The toast title of a failure (product.md §8). */
  readonly errorTitle: string;
  /** After 'duplicate entry' (an earlier answer lost), the whole record goes again as an update,
   * even when nothing differs (product.md §4: profiles are always updated first). Otherwise only the
   * changed fields go, and nothing when none changed. */
  readonly updateOnDuplicate?: boolean;
}

/** What an entity declaration says. `F` is its field map. */
export interface EntityInput<F extends FieldMap = FieldMap> {
  /** camelCase name used in code and translation keys (`entity.<name>`). */
  readonly name: string;
  /** Exact product.md §3 table / collection name. */
  readonly table: string;
  /** Primary key: one field, or two for a composite key. */
  readonly key: (keyof F & string) | readonly [keyof F & string, keyof F & string];
  /** The field pointing at the parent record (an id field with `ref`). */
  readonly parent?: keyof F & string;
  /** REST base path under /api (product.md §7, spelling kept). Absent for client-only entities. */
  readonly rest?: string;
  /** Extra REST routes of product.md §7 beyond list/get/create/update. */
  readonly routes?: RestRoutes;
  readonly upload?: UploadConfig;
  /** An RxDB collection of icrs_db (product.md §3 "Local offline store"). */
  readonly offline?: boolean;
  /** False for `files`: no table, no API. */
  readonly server?: boolean;
  /** Role-matrix permissions: `create` (new records) defaults to `write` (edits). The API's
   * create routes, the add screens and menus, and the data layer all read `createPermission`. */
  readonly access: { readonly read: Permission; readonly write: Permission; readonly create?: Permission };
  readonly softDelete?: boolean;
  readonly list?: ListConfig<keyof F & string>;
  /** RxDB schema version; bump with a migration strategy when the offline shape changes. */
  readonly rxVersion?: number;
  /** Organisation scope; required for server entities (checked at load time). */
  readonly owner?: OwnerInput<keyof F & string>;
  /** The fields that name a record for people (joined with spaces): page titles, pickers,
   * messages, the pending screen. Absent: the record's key names it. */
  readonly title?: readonly (keyof F & string)[];
  /** The title without its reference number, where a record is named in a sentence or a heading
   * (a client: first and last names; the registration number is shown beside, or not at all).
   * Absent: the title. */
  readonly shortTitle?: readonly (keyof F & string)[];
  /** The field given a new registration number (the organisation's code and 8 characters) when a
   * record is created without one, by the app online and offline (a client's prof_Reg_No). */
  readonly registrationNumber?: keyof F & string;
  /** The entity whose records hold this one's photo and documents, one per kind, instead of image
   * fields on the record (a client's: profileImage, sent after the record by PUT /profile/images). */
  readonly fileRecords?: string;
  readonly fields: F;
}

/** The shape every derivation accepts. */
export interface EntityShape {
  readonly name: string;
  readonly table: string;
  readonly label: string;
  readonly key: string | readonly [string, string];
  readonly keyFields: readonly string[];
  readonly parent?: { readonly field: string; readonly entity: string };
  readonly rest?: string;
  readonly routes: RestRoutes;
  readonly upload?: UploadConfig;
  readonly offline: boolean;
  readonly server: boolean;
  /** Role-matrix permissions: `create` (new records) defaults to `write` (edits). The API's
   * create routes, the add screens and menus, and the data layer all read `createPermission`. */
  readonly access: { readonly read: Permission; readonly write: Permission; readonly create?: Permission };
  readonly softDelete: boolean;
  readonly list?: ListConfig;
  readonly rxVersion: number;
  readonly owner?: OwnerInput;
  readonly title: readonly string[];
  readonly shortTitle: readonly string[];
  readonly registrationNumber?: string;
  readonly fileRecords?: string;
  readonly fields: FieldMap;
  readonly systemFields: FieldMap;
  readonly images: readonly string[];
}

type WithLabels<F extends FieldMap> = { readonly [K in keyof F]: F[K] & { readonly label: string } };

type SystemFieldsOf<D extends EntityInput> = D['server'] extends false
  ? Record<never, never>
  : D['softDelete'] extends true
    ? AuditFields & SoftDeleteFields
    : AuditFields;

/** A declared entity: the input with everything derivable filled in. */
export type Entity<D extends EntityInput> = Omit<EntityShape, 'name' | 'key' | 'fields' | 'systemFields' | 'softDelete'> & {
  readonly name: D['name'];
  readonly key: D['key'];
  readonly softDelete: D['softDelete'] extends true ? true : false;
  readonly fields: WithLabels<D['fields']>;
  readonly systemFields: SystemFieldsOf<D>;
};

/** Declares an entity. Checks the declaration's internal consistency at load time, so a
 * mistake fails every test run instead of surfacing as a broken table or form. */
export function defineEntity<const D extends EntityInput>(def: D & EntityInput<D['fields']>): Entity<D> {
  const keyFields = typeof def.key === 'string' ? [def.key] : [...def.key];
  const server = def.server !== false;
  const entity: EntityShape = {
    name: def.name,
    table: def.table,
    label: `entity.${def.name}`,
    key: def.key,
    keyFields,
    parent: def.parent ? { field: def.parent, entity: refOf(def, def.parent) } : undefined,
    rest: def.rest,
    routes: def.routes ?? {},
    upload: def.upload,
    offline: def.offline === true,
    server,
    access: def.access,
    softDelete: def.softDelete === true,
    list: def.list,
    rxVersion: def.rxVersion ?? 0,
    owner: def.owner,
    title: def.title ?? [],
    shortTitle: def.shortTitle ?? def.title ?? [],
    registrationNumber: def.registrationNumber,
    fileRecords: def.fileRecords,
    fields: labelled(def.name, def.fields),
    systemFields: systemFieldsFor(server, def.softDelete === true),
    images: Object.keys(def.fields).filter((k) => def.fields[k]?.kind === 'image'),
  };
  checkEntity(entity);
  return entity as unknown as Entity<D>;
}

function labelled(entity: string, fields: FieldMap): FieldMap {
  return Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [name, { ...field, label: field.label ?? `field.${entity}.${name}` }]),
  );
}

function systemFieldsFor(server: boolean, softDelete: boolean): FieldMap {
  if (!server) return {};
  return softDelete ? { ...auditFields, ...softDeleteFields } : { ...auditFields };
}

function refOf(def: EntityInput, fieldName: string): string {
  const field = def.fields[fieldName];
  if (field?.kind !== 'id' || !field.ref) throw new Error(`${def.name}: parent ${fieldName} must be an id field with ref`);
  return field.ref;
}

// ---------------------------------------------------------------------------------------------
// Load-time checks
// ---------------------------------------------------------------------------------------------

const FILTER_KINDS: readonly FieldKind[] = ['id', 'lookup', 'enum', 'boolean', 'integer'];

function checkEntity(e: EntityShape): void {
  const fail = (why: string): never => {
    throw new Error(`entity ${e.name}: ${why}`);
  };
  const all = { ...e.fields, ...e.systemFields };
  for (const k of e.keyFields) {
    const field = e.fields[k];
    if (!field) fail(`key ${k} is not a field`);
    else if (!field.required) fail(`key ${k} must be required`);
  }
  for (const name of Object.keys(all)) if (e.fields[name] && e.systemFields[name]) fail(`${name} is a system field`);
  for (const [name, field] of Object.entries(e.fields)) checkField(name, field, fail);
  if (e.server && (!e.rest || !e.rest.startsWith('/'))) fail('server entities need a rest path starting with /');
  if (e.upload && !e.offline) fail('only offline entities upload');
  if (e.list) checkList(e.list, all, fail);
  for (const name of [...e.title, ...e.shortTitle]) if (!e.fields[name]) fail(`title field ${name} is not a field`);
  if (e.registrationNumber && e.fields[e.registrationNumber]?.kind !== 'string')
    fail(`registration number ${e.registrationNumber} must be a string field`);
  checkOwner(e, fail);
}

/** The name of a record for people: its title fields joined with spaces, or '' when they are
 * all empty (the caller then says "unnamed" or shows the key, as it sees fit). `short`: without
 * its reference number (EntityInput.shortTitle), for a sentence or a heading. */
export function recordTitle(entity: EntityShape, data: object, form: 'full' | 'short' = 'full'): string {
  return (form === 'short' ? entity.shortTitle : entity.title)
    .map((name) => (data as Readonly<Record<string, unknown>>)[name])
    .filter((value) => value !== undefined && value !== null && value !== '')
    .join(' ');
}

/** Every server entity says whose it is, so a new one cannot be left outside the scope. */
function checkOwner(e: EntityShape, fail: (why: string) => never): void {
  if (!e.server) return;
  if (e.owner === undefined) fail('declare its owner (schemas/scope.ts): { field, reads }, { via: "parent" } or null');
  if (!e.owner) return;
  if ('via' in e.owner && !e.parent) fail('owner via parent needs a parent');
  if ('field' in e.owner) {
    const field = e.fields[e.owner.field];
    if (field?.kind !== 'lookup' || !field.readOnly) fail(`owner ${e.owner.field} must be a read-only lookup field (the server fills it)`);
  }
}

function checkField(name: string, field: Field, fail: (why: string) => never): void {
  const flags = [field.readOnly, field.writeOnly, field.clientOnly, field.hidden].filter(Boolean);
  if (flags.length > 1) fail(`${name}: readOnly, writeOnly, clientOnly and hidden exclude each other`);
  if (field.kind === 'enum') {
    if (field.values.length === 0) fail(`${name}: enum without values`);
    const numeric = field.values.every((v) => typeof v === 'number' && Number.isInteger(v));
    const textual = field.values.every((v) => typeof v === 'string');
    if (!numeric && !textual) fail(`${name}: enum values must be all integers or all strings`);
    if (field.names && field.names.length !== field.values.length) fail(`${name}: one name per enum value`);
  }
  if ((field.kind === 'integer' || field.kind === 'number') && field.minimum > field.maximum) fail(`${name}: min > max`);
  if (field.kind === 'string' && field.pattern && !field.example) fail(`${name}: a pattern needs an example`);
}

function checkList(list: ListConfig, all: FieldMap, fail: (why: string) => never): void {
  for (const name of list.filters) {
    const field = all[name];
    if (!field || !FILTER_KINDS.includes(field.kind)) fail(`filter ${name} must be an id, lookup, enum, boolean or integer field`);
  }
  for (const name of list.search) {
    if (all[name]?.kind !== 'string') fail(`search field ${name} must be a string field`);
  }
  if (!all[list.defaultSort.field]) fail(`default sort ${list.defaultSort.field} is not a field`);
  for (const name of list.sorts ?? []) {
    const kind = all[name]?.kind;
    if (!kind || kind === 'json' || kind === 'image') fail(`sort ${name} must be a scalar field`);
  }
  if (list.dateField && all[list.dateField]?.kind !== 'string') fail(`date field ${list.dateField} must be a date`);
}

// ---------------------------------------------------------------------------------------------
// Small helpers the derivations share
// ---------------------------------------------------------------------------------------------

/** Declared fields followed by the system fields, in column order. */
export function allFields(e: EntityShape): [string, Field][] {
  return [...Object.entries(e.fields), ...Object.entries(e.systemFields)];
}

/** The table's columns: everything but browser-only and body-only fields. */
export function serverFields(e: EntityShape): [string, Field][] {
  return allFields(e).filter(([, field]) => !field.clientOnly && !field.writeOnly);
}

/** Fields of the rows the API answers with: columns the server does not keep to itself. */
/** The permission to create a record of `e` (ADR-0005: one rule for API, screens and offline forms). */
export function createPermission(e: Pick<EntityShape, 'access'>): Permission {
  return e.access.create ?? e.access.write;
}

/** The fields that keep their first value (FieldFlags.immutable). */
export function immutableFields(e: EntityShape): [string, Field][] {
  return Object.entries(e.fields).filter(([, field]) => field.immutable === true);
}

export function rowFields(e: EntityShape): [string, Field][] {
  return serverFields(e).filter(([, field]) => !field.hidden);
}

/** Fields a client may send (create/update bodies). */
export function writableFields(e: EntityShape): [string, Field][] {
  return Object.entries(e.fields).filter(([, field]) => !field.readOnly && !field.clientOnly && !field.hidden);
}

/** True when a missing value is filled by a default rather than rejected. */
export function hasDefault(field: Field): boolean {
  return ('default' in field && field.default !== undefined) || (field.kind === 'string' && field.defaultNow === true);
}

/** The key the server makes when a body has none: a single own UUID key. Undefined for
 * composite keys and for keys that are a parent's key (skills … business: prof_Id). */
export function generatedKey(e: EntityShape): string | undefined {
  const field = typeof e.key === 'string' ? e.fields[e.key] : undefined;
  return field?.kind === 'id' && !field.ref ? (e.key as string) : undefined;
}

/** Translation key of an enum value: `enum.<entity>.<field>.<name>`. */
export function enumLabel(entity: string, field: string, enumField: EnumField, value: string | number): string {
  const index = enumField.values.indexOf(value);
  const name = enumField.names?.[index] ?? String(value);
  return `enum.${entity}.${field}.${name}`;
}
