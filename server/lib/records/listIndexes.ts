// The indexes the lists read their pages from, derived from the entity declarations (their
// `list`: default order, the orders the screen offers, the search fields; their owner): a page
// is then read along an index, whatever the table's size (docs/performance.md "Lists at any
// size"). The ORDER BY of a list (./rows.ts orderBySql) and these indexes are written together:
// an index serves an order only when the directions and the place of nulls match.
import { rowFields, type EntityShape, type Field, type SortDir } from '../../../schemas/define';
import { ident } from '../../../schemas/derive/sql';
import { ownerPath } from '../../../schemas/scope';

/** One index: its name (≤ 63 bytes, PostgreSQL's limit) and its CREATE statement. */
export interface ListIndex {
  readonly name: string;
  readonly sql: string;
}

const field = (e: EntityShape, name: string): Field | undefined => Object.fromEntries(rowFields(e))[name];

/** True when the column can hold no NULL (NOT NULL in the table: required fields and the key). */
export function notNull(e: EntityShape, name: string): boolean {
  return e.keyFields.includes(name) || field(e, name)?.required === true;
}

/**
 * `column dir` as a list orders by it. Lists put empty values last in both directions. A NOT NULL
 * column has none, so it is ordered with the direction's own place of nulls, which is the same
 * rows in the same order: then one ascending index serves both directions (read backwards for
 * the descending one). A column that may be empty needs an index per direction.
 */
export function orderTerm(e: EntityShape, column: string, dir: SortDir): string {
  const direction = dir === 'desc' ? 'DESC' : 'ASC';
  return notNull(e, column) ? `${ident(column)} ${direction}` : `${ident(column)} ${direction} NULLS LAST`;
}

/** The ORDER BY of a list sorted on `column`: the key breaks ties, so that pages are stable. */
export function orderBySql(e: EntityShape, column: string, dir: SortDir): string {
  const key = e.keyFields[0] as string;
  const direction = dir === 'desc' ? 'DESC' : 'ASC';
  return `ORDER BY ${orderTerm(e, column, dir)}, ${ident(key)} ${direction}`;
}

/** The condition every list adds for live rows (./rows.ts addLive), as an index predicate:
 * the list indexes hold live rows only. */
export function livePredicate(e: EntityShape): string | undefined {
  const parts = [e.softDelete ? 'NOT "deleted"' : '', e.fields.erasedAt ? '"erasedAt" IS NULL' : ''].filter(Boolean);
  return parts.length ? parts.join(' AND ') : undefined;
}

/** The columns a list's scope compares first: the owner column of client data (a reader of one
 * organisation), and nothing (role 1, and readers of shared records). */
function scopePrefixes(e: EntityShape): string[][] {
  const path = ownerPath(e);
  const ownOrganisation = path && path.steps.length === 0 && path.root.reads === 'own';
  return ownOrganisation ? [[], [path.root.field]] : [[]];
}

/** The orders the list of `e` is read in: its default one and those its screen offers. */
export function listOrders(e: EntityShape): string[] {
  if (!e.list || !e.server) return [];
  return [...new Set([e.list.defaultSort.field, ...(e.list.sorts ?? [])])];
}

/** A short, stable name within PostgreSQL's 63 bytes. */
function indexNameOf(e: EntityShape, parts: readonly string[]): string {
  const name = `${e.table}_l_${parts.join('_')}`.replace(/[^A-Za-z0-9_-]/g, '');
  if (Buffer.byteLength(name) > 63) throw new Error(`${name}: index name longer than 63 bytes`);
  return name;
}

function createIndex(e: EntityShape, name: string, body: string, predicate = livePredicate(e)): ListIndex {
  const where = predicate ? ` WHERE ${predicate}` : '';
  return { name, sql: `CREATE INDEX IF NOT EXISTS ${ident(name)} ON ${ident(e.table)} ${body}${where}` };
}

/** The B-tree indexes of the list orders of `e`, each led by the scope's columns. */
export function orderIndexes(e: EntityShape): ListIndex[] {
  const key = e.keyFields[0] as string;
  return scopePrefixes(e).flatMap((prefix) =>
    listOrders(e).flatMap((column) => {
      const dirs: SortDir[] = notNull(e, column) ? ['asc'] : ['asc', 'desc'];
      return dirs.map((dir) => {
        const direction = dir === 'desc' ? 'DESC' : 'ASC';
        const columns = [...prefix.map(ident), orderTerm(e, column, dir), `${ident(key)} ${direction}`];
        const name = indexNameOf(e, [...prefix, column, ...(notNull(e, column) ? [] : [dir])]);
        return createIndex(e, name, `(${columns.join(', ')})`);
      });
    }),
  );
}

/** The trigram indexes of the list search of `e` (a screen's list: one that declares its
 * orders): one per search field, so that `a ILIKE q OR b ILIKE q` is a union of index scans. */
export function searchIndexes(e: EntityShape): ListIndex[] {
  if (!e.server || !e.list?.sorts) return [];
  return e.list.search.map((column) => createIndex(e, indexNameOf(e, ['trgm', column]), `USING gin (${ident(column)} gin_trgm_ops)`));
}

/** The audit screen's filters (organisation, user, table, day), newest first along the key. Every
 * index costs each write of the application (bench/audit.bench.ts): these four only. */
export const AUDIT_LIST_INDEXES: readonly ListIndex[] = [
  ['audit_log_location_idx', '("location", "id")'],
  ['audit_log_user_idx', '("userId", "id")'],
  ['audit_log_entity_idx', '("entity", "id")'],
  ['audit_log_at_idx', '("at")'],
].map(([name, body]) => ({ name: name as string, sql: `CREATE INDEX IF NOT EXISTS ${ident(name as string)} ON "audit_log" ${body}` }));
