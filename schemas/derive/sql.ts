// PostgreSQL DDL derived from the entity declarations. The same text runs on PostgreSQL 15+
// and on PGlite, so it sticks to plain SQL: no extensions, no procedural code.
// Identifiers are double-quoted and spelt exactly like the fields ("sp_Name"), so rows come
// back from the driver with the spec's names and need no mapping.

import type { EntityShape, Field } from '../define.ts';
import { MAX_INT, UUID_PATTERN, serverFields } from '../define.ts';
import { getEntity, serverEntities } from '../index.ts';

/** `"name"`, with embedded quotes doubled. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `'text'`, with embedded quotes doubled. */
export function literal(value: string | number | boolean): string {
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  return String(value);
}

/** The column type of a field. Calendar dates are `date`; instants `timestamptz`. */
export function sqlType(field: Field): string {
  switch (field.kind) {
    case 'id':
    case 'image':
      return 'text';
    case 'string':
      if (field.format === 'date') return 'date';
      return field.format === 'date-time' ? 'timestamptz' : 'text';
    case 'integer':
    case 'lookup':
      return 'integer';
    case 'number':
    case 'lat':
    case 'lng':
      return 'double precision';
    case 'boolean':
      return 'boolean';
    case 'enum':
      return field.values.every((v) => typeof v === 'number') ? 'integer' : 'text';
    case 'json':
      return 'jsonb';
  }
}

/** Cheap CHECK conditions: lengths, ranges and fixed sets. Regular expressions are checked
 * by ajv only (JavaScript and POSIX dialects differ), except the plain UUID pattern. */
function checks(name: string, field: Field): string[] {
  const col = ident(name);
  switch (field.kind) {
    case 'id':
      return [`${col} ~ ${literal(UUID_PATTERN)}`];
    case 'string':
      return stringChecks(col, field.minLength, field.maxLength, field.format);
    case 'integer':
    case 'number':
      return [`${col} BETWEEN ${field.minimum} AND ${field.maximum}`];
    case 'lookup':
      return [`${col} BETWEEN ${field.allowNone ? 0 : 1} AND ${MAX_INT}`];
    case 'lat':
      return [`${col} BETWEEN -90 AND 90`];
    case 'lng':
      return [`${col} BETWEEN -180 AND 180`];
    case 'enum':
      return [`${col} IN (${field.values.map(literal).join(', ')})`];
    case 'json':
      return field.schema.type === 'array' || field.schema.type === 'object'
        ? [`jsonb_typeof(${col}) = ${literal(field.schema.type)}`]
        : [];
    case 'image':
      return [`char_length(${col}) <= 255`];
    case 'boolean':
      return [];
  }
}

function stringChecks(col: string, min: number | undefined, max: number, format: string | undefined): string[] {
  if (format === 'date' || format === 'date-time') return [];
  return [min ? `char_length(${col}) BETWEEN ${min} AND ${max}` : `char_length(${col}) <= ${max}`];
}

function defaultClause(field: Field): string {
  if (field.kind === 'string' && field.defaultNow) return ' DEFAULT now()';
  if ('default' in field && field.default !== undefined) return ` DEFAULT ${literal(field.default)}`;
  return '';
}

export function columnSql(name: string, field: Field): string {
  const conditions = checks(name, field);
  const check = conditions.length ? ` CHECK (${conditions.join(' AND ')})` : '';
  const notNull = field.required ? ' NOT NULL' : '';
  const unique = field.unique ? ' UNIQUE' : '';
  return `${ident(name)} ${sqlType(field)}${notNull}${defaultClause(field)}${unique}${check}`;
}

/** Foreign keys of the declared `ref` fields, to the referenced entity's primary key. */
function foreignKeys(entity: EntityShape): string[] {
  return Object.entries(entity.fields).flatMap(([name, field]) => {
    if (field.kind !== 'id' || !field.ref) return [];
    const target = getEntity(field.ref);
    if (!target || typeof target.key !== 'string') throw new Error(`${entity.name}.${name}: bad ref ${field.ref}`);
    return [`FOREIGN KEY (${ident(name)}) REFERENCES ${ident(target.table)} (${ident(target.key)})`];
  });
}

/** CREATE TABLE IF NOT EXISTS for one server entity. Parents must exist first (see
 * `schemaSql`). No bytea here: image bytes live in a table the server owns. */
export function createTableSql(entity: EntityShape): string {
  if (!entity.server) throw new Error(`${entity.name} has no server table`);
  const lines = [
    ...serverFields(entity).map(([name, field]) => columnSql(name, field)),
    `PRIMARY KEY (${entity.keyFields.map(ident).join(', ')})`,
    ...foreignKeys(entity),
  ];
  return `CREATE TABLE IF NOT EXISTS ${ident(entity.table)} (\n  ${lines.join(',\n  ')}\n);`;
}

/** Index name `<table>_<columns>_idx`; PostgreSQL truncates names beyond 63 bytes, which
 * could make two IF NOT EXISTS indexes collide, so the tests keep these short. */
export function indexName(table: string, columns: readonly string[]): string {
  return `${table}_${columns.join('_')}_idx`;
}

/** The column lists one entity is indexed on: references (parents), list filters, the default
 * list order, and ("updatedAt", key) for the pull-sync checkpoint (product.md §D6). */
export function indexColumns(entity: EntityShape): string[][] {
  const refs = Object.entries(entity.fields)
    .filter(([name, field]) => field.kind === 'id' && field.ref && name !== entity.keyFields[0])
    .map(([name]) => [name]);
  const filters = (entity.list?.filters ?? []).map((name) => [name]);
  const sort = entity.list ? [[entity.list.defaultSort.field]] : [];
  const all = [...refs, ...filters, ...sort, ['updatedAt', ...entity.keyFields]];
  const seen = new Set<string>();
  return all.filter((cols) => {
    const id = cols.join(',');
    const isKeyPrefix = cols.every((c, i) => c === entity.keyFields[i]);
    if (seen.has(id) || isKeyPrefix) return false;
    seen.add(id);
    return true;
  });
}

/**
 * Whether the index on `cols` holds live rows only (`WHERE NOT "deleted"`): a list filter of a
 * soft-delete entity. Lists and their counts never read deleted rows, and with the partial
 * index a filtered count is an index-only scan (100,000 providers, one territory of 12,500:
 * 12-24 ms → 1-3 ms on PostgreSQL 15; docs/performance.md "API under load"). References stay
 * whole: they are followed to deleted parents too.
 */
export function liveOnlyIndex(entity: EntityShape, cols: readonly string[]): boolean {
  const [name] = cols;
  if (!entity.softDelete || cols.length !== 1 || name === undefined || !entity.list?.filters.includes(name)) return false;
  const field = entity.fields[name];
  return !(field?.kind === 'id' && field.ref);
}

/** CREATE INDEX IF NOT EXISTS statements of one server entity. */
export function createIndexesSql(entity: EntityShape): string[] {
  if (!entity.server) return [];
  return indexColumns(entity).map((cols) => {
    const live = liveOnlyIndex(entity, cols);
    const name = indexName(entity.table, live ? [...cols, 'live'] : cols);
    return `CREATE INDEX IF NOT EXISTS ${ident(name)} ON ${ident(entity.table)} (${cols.map(ident).join(', ')})${live ? ' WHERE NOT "deleted"' : ''};`;
  });
}

/** Every table and index, parents before children: the body of the first migration. */
export function schemaSql(list: readonly EntityShape[] = serverEntities): string {
  return list.flatMap((e) => [createTableSql(e), ...createIndexesSql(e)]).join('\n\n');
}
