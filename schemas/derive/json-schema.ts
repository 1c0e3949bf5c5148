// JSON schemas for Fastify/ajv derived from the entity declarations. Plain ajv keywords only
// (no errorMessage): the server maps ajv errors to localized messages itself. Formats
// 'date', 'date-time' and 'email' need ajv-formats, which Fastify's compiler loads.
// Optional fields accept null (type [T, 'null']) so that an edit can clear a value.

import type { EntityShape, Field, JsonSchema, JsonType } from '../define.ts';
import { MAX_INT, UUID_LENGTH, UUID_PATTERN, generatedKey, hasDefault, rowFields, writableFields } from '../define.ts';

/**
 * Characters no text may hold, refused by the schema layer for every string (ADR-0010):
 * C0 controls but tab, line feed and carriage return (multi-line notes need those), DEL, C1
 * controls, and lone UTF-16 surrogates. None is typed by a person; PostgreSQL refuses NUL in
 * text and NUL or a lone surrogate in jsonb; the others hide or reorder what a screen shows.
 * Checked with the `u` flag (ajv's default, and the client's validation.ts), so a lone
 * surrogate is one code point and an emoji's surrogate pair is not refused.
 */
export const TEXT_PATTERN = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF]*$';

/** Years a date or date-time may have: 1900 to 2100. Older or later is a typing mistake
 * (birth years, deadlines) or an attack (PostgreSQL refuses year 0000). */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2100;
export const DATE_YEAR_PATTERN = '^(?:19[0-9]{2}|20[0-9]{2}|2100)-';

/** Any text of at most `maxLength` characters, for hand-written schemas (login, reasons). */
export function textSchema(maxLength: number, minLength?: number): JsonSchema {
  return withInputRules(stringSchema(minLength, maxLength));
}

/** A calendar date 'YYYY-MM-DD' within MIN_YEAR..MAX_YEAR. */
export function dateSchema(): JsonSchema {
  return withInputRules(stringSchema(undefined, 10, undefined, 'date'));
}

/** Page sizes of the spec's table menus (product.md §9). */
export const PAGE_SIZES = [5, 10, 15, 20, 25, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_SEARCH_LENGTH = 200;

/** The JSON schema of one value of the field, never null. */
export function fieldSchema(field: Field): JsonSchema {
  switch (field.kind) {
    case 'id':
      return { type: 'string', minLength: UUID_LENGTH, maxLength: UUID_LENGTH, pattern: UUID_PATTERN };
    case 'string':
      return stringSchema(field.minLength, field.maxLength, field.pattern, field.format);
    case 'integer':
    case 'number':
      return { type: field.kind, minimum: field.minimum, maximum: field.maximum };
    case 'lookup':
      return { type: 'integer', minimum: field.allowNone ? 0 : 1, maximum: MAX_INT };
    case 'enum':
      return { type: field.values.every((v) => typeof v === 'number') ? 'integer' : 'string', enum: field.values };
    case 'lat':
      return { type: 'number', minimum: -90, maximum: 90 };
    case 'lng':
      return { type: 'number', minimum: -180, maximum: 180 };
    case 'boolean':
      return { type: 'boolean' };
    case 'json':
      return field.schema;
    case 'image':
      return { type: 'string', maxLength: 255 };
  }
}

/**
 * The schema a request value of the field is checked with: fieldSchema plus the input rules
 * (withInputRules). Kept apart from fieldSchema, which also shapes the RxDB collections,
 * whose schemas must not change without a migration.
 */
export function inputSchema(field: Field): JsonSchema {
  return withInputRules(fieldSchema(field));
}

function stringSchema(minLength: number | undefined, maxLength: number, pattern?: string, format?: string): JsonSchema {
  // 'phone' is no ajv format: its pattern does the work.
  const fmt = format && format !== 'phone' ? { format } : {};
  return { type: 'string', maxLength, ...(minLength ? { minLength } : {}), ...(pattern ? { pattern } : {}), ...fmt };
}

/**
 * The input rules (ADR-0010), applied to every string of a schema, nested ones included
 * (JSON fields such as BspData, lookup items): a declared pattern stays (each refuses control
 * characters itself: test/unit/input-rules.test.ts), dates and date-times get the year range
 * (their formats already refuse control characters), email keeps ajv's strict format, any
 * other text gets TEXT_PATTERN and a length limit; object keys an object does not name are
 * held to TEXT_PATTERN too.
 */
export function withInputRules(schema: JsonSchema): JsonSchema {
  const types: readonly JsonType[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type as JsonType] : [];
  let safe: JsonSchema = schema;
  if (types.includes('string') && !schema.enum && !schema.pattern) {
    const dated = schema.format === 'date' || schema.format === 'date-time';
    const pattern = dated ? DATE_YEAR_PATTERN : schema.format === 'email' ? undefined : TEXT_PATTERN;
    safe = { ...safe, maxLength: schema.maxLength ?? MAX_JSON_STRING, ...(pattern ? { pattern } : {}) };
  }
  if (schema.properties) {
    safe = { ...safe, properties: Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, withInputRules(v)])) };
  }
  if (types.includes('object') && schema.additionalProperties !== false) safe = { ...safe, propertyNames: { pattern: TEXT_PATTERN } };
  if (schema.items) safe = { ...safe, items: withInputRules(schema.items) };
  return safe;
}

/** Length limit of a string inside a JSON field that declares none. */
const MAX_JSON_STRING = 10_000;

/** Adds null to a schema's type (and to its enum). */
export function nullable(schema: JsonSchema): JsonSchema {
  const types: readonly JsonType[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type as JsonType] : [];
  if (types.includes('null')) return schema;
  const withNull = { ...schema, type: [...types, 'null'] as JsonType[] };
  return schema.enum ? { ...withNull, enum: [...schema.enum, null] } : withNull;
}

function valueSchema(field: Field): JsonSchema {
  return field.required ? inputSchema(field) : nullable(inputSchema(field));
}

function objectSchema(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) };
}

/** POST body: every writable field; the generated key may be left out (the server makes
 * one); system, read-only and browser-only fields are not accepted. */
export function createBodySchema(entity: EntityShape): JsonSchema {
  const key = generatedKey(entity);
  const fields = writableFields(entity);
  const properties = Object.fromEntries(
    fields.map(([name, field]) => {
      const schema = valueSchema(field);
      return [name, 'default' in field && field.default !== undefined ? { ...schema, default: field.default } : schema];
    }),
  );
  const required = fields.filter(([name, field]) => field.required && !hasDefault(field) && name !== key).map(([name]) => name);
  return objectSchema(properties, required);
}

/** PUT body: any writable field but the key, none required and no defaults (a partial update
 * must never reset what it does not mention), plus the `updatedAt` the edit is based on
 * (product.md §D6: the server answers 409 `conflict` when its row changed since). */
export function updateBodySchema(entity: EntityShape): JsonSchema {
  const fields = writableFields(entity).filter(([name]) => !entity.keyFields.includes(name));
  const properties = Object.fromEntries(fields.map(([name, field]) => [name, valueSchema(field)]));
  return objectSchema({ ...properties, updatedAt: withInputRules(stringSchema(undefined, 40, undefined, 'date-time')) }, []);
}

/** A row as the API answers it: stored fields and system fields, never passwords or hashes. */
export function rowSchema(entity: EntityShape): JsonSchema {
  const fields = rowFields(entity);
  const properties = Object.fromEntries(fields.map(([name, field]) => [name, valueSchema(field)]));
  const required = fields.filter(([, field]) => field.required).map(([name]) => name);
  return objectSchema(properties, required);
}

/** One page of rows: the list envelope. */
export function pageSchema(entity: EntityShape): JsonSchema {
  const properties = {
    rows: { type: 'array', items: rowSchema(entity) },
    total: { type: 'integer', minimum: 0, description: 'The rows found: exact, or a lower bound when totalIsLowerBound' },
    totalIsLowerBound: { type: 'boolean', description: 'True when there are more rows than total (counts stop at a bound)' },
    page: { type: 'integer', minimum: 1 },
    pageSize: { type: 'integer', enum: PAGE_SIZES },
  } satisfies Record<string, JsonSchema>;
  return objectSchema(properties, ['rows', 'total', 'totalIsLowerBound', 'page', 'pageSize']);
}

/** Fields a list may be sorted on: scalar row fields and the audit times. */
export function sortableFields(entity: EntityShape): string[] {
  return rowFields(entity)
    .filter(([, field]) => field.kind !== 'json' && field.kind !== 'image')
    .map(([name]) => name);
}

/** Query string of GET lists (and body of the POST search calls): page, pageSize from the
 * spec's sizes, sort and dir among known fields, q, the entity's filters, dateFrom/dateTo. */
export function listQuerySchema(entity: EntityShape): JsonSchema {
  const list = entity.list;
  const all = Object.fromEntries(rowFields(entity));
  const filters = Object.fromEntries((list?.filters ?? []).flatMap((name) => (all[name] ? [[name, inputSchema(all[name])]] : [])));
  const properties: Record<string, JsonSchema> = {
    page: { type: 'integer', minimum: 1, maximum: MAX_INT, default: 1 },
    pageSize: { type: 'integer', enum: PAGE_SIZES, default: DEFAULT_PAGE_SIZE },
    sort: { type: 'string', enum: sortableFields(entity), default: list?.defaultSort.field ?? 'createdAt' },
    dir: { type: 'string', enum: ['asc', 'desc'], default: list?.defaultSort.dir ?? 'desc' },
    q: textSchema(MAX_SEARCH_LENGTH),
    dateFrom: dateSchema(),
    dateTo: dateSchema(),
    ...filters,
  };
  return objectSchema(properties, []);
}
