// Lists from RxDB: the API's list query (filters, search, sort, page) as an RxDB query, so a
// screen pages the same way online and offline.
import type { MangoQuery, MangoQuerySelector, MangoQuerySortPart } from 'rxdb';
import { map, type Observable } from 'rxjs';
import type { EntityShape } from '../../../schemas/define';
import type { IcrsCollection } from '../store';
import type { ListQuery } from './types';

type Selector = MangoQuerySelector<Record<string, unknown>>;
type Sort = MangoQuerySortPart<Record<string, unknown>>[];

export const DEFAULT_PAGE_SIZE = 10;

export function pageOf(query: ListQuery): { page: number; pageSize: number } {
  return { page: Math.max(1, Math.floor(query.page ?? 1)), pageSize: Math.max(1, Math.floor(query.pageSize ?? DEFAULT_PAGE_SIZE)) };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function dateRange(entity: EntityShape, query: ListQuery): Selector {
  if (!query.dateFrom && !query.dateTo) return {};
  const field = entity.list?.dateField ?? 'createdAt';
  // ISO dates and date-times compare as strings; the end day is included whole.
  const bounds = { ...(query.dateFrom ? { $gte: query.dateFrom } : {}), ...(query.dateTo ? { $lte: `${query.dateTo}\uffff` } : {}) };
  return { [field]: bounds };
}

/** The selector of a list query: equality filters, text search (any search field contains
 * the words, case-insensitive, like the server's ILIKE) and the date range. */
export function selectorOf(entity: EntityShape, query: ListQuery): Selector {
  const selector: Selector = { ...dateRange(entity, query) };
  for (const [name, value] of Object.entries(query.filter ?? {})) selector[name] = value;
  const q = query.q?.trim();
  const search = entity.list?.search ?? [];
  if (q && search.length) selector.$or = search.map((field) => ({ [field]: { $regex: escapeRegex(q), $options: 'i' } }));
  return selector;
}

/** Newest first is `sortDesc` ascending (an index); any other field sorts in memory, with
 * `sortDesc` breaking ties so pages never overlap. */
export function sortOf(entity: EntityShape, query: ListQuery): Sort {
  const field = query.sort ?? entity.list?.defaultSort.field ?? 'createdAt';
  const dir = query.dir ?? (query.sort ? 'asc' : (entity.list?.defaultSort.dir ?? 'desc'));
  if (field === 'createdAt') return [{ sortDesc: dir === 'desc' ? 'asc' : 'desc' }];
  return [{ [field]: dir }, { sortDesc: 'asc' }];
}

export function mangoOf(entity: EntityShape, query: ListQuery): MangoQuery<Record<string, unknown>> {
  const { page, pageSize } = pageOf(query);
  return { selector: selectorOf(entity, query), sort: sortOf(entity, query), skip: (page - 1) * pageSize, limit: pageSize };
}

/** RxDB refuses a count its indexes cannot answer (QU14, allowSlowCount is off); such a
 * count is the length of the matching documents instead. */
function indexedCount(collection: IcrsCollection, selector: Selector): boolean {
  return collection.find({ selector }).getPreparedQuery().queryPlan.selectorSatisfiedByIndex;
}

export async function countOf(collection: IcrsCollection, selector: Selector): Promise<number> {
  if (indexedCount(collection, selector)) return collection.count({ selector }).exec();
  return (await collection.find({ selector }).exec()).length;
}

export function count$Of(collection: IcrsCollection, selector: Selector): Observable<number> {
  if (indexedCount(collection, selector)) return collection.count({ selector }).$;
  return collection.find({ selector }).$.pipe(map((docs: unknown[]) => docs.length));
}
