// A list page from the server: no store, no images, so the app's start can ask it (the list's
// first page asked with the address, prefetch.ts) without loading RxDB.
import type { EntityShape } from '../../../schemas/define';
import { listParams } from '../../../schemas/listQuery';
import type { HttpClient, ListQuery } from './types';

export type Row = Record<string, unknown>;

export interface Page {
  rows: Row[];
  total: number;
  /** The server counts up to a bound: true when there are more rows than `total`. */
  totalIsLowerBound?: boolean;
  page: number;
  pageSize: number;
}

export function restOf(entity: EntityShape): string {
  if (!entity.rest) throw new Error(`${entity.name} has no API`);
  return entity.rest;
}

/** One page from the server: through the entity's POST search call when it has one (product.md §7:
 * /jobs/search/, /sproviers/srch, /spDetail/search/), else GET with the query string. */
export async function getPage(http: HttpClient, entity: EntityShape, query: ListQuery): Promise<Page> {
  const params = listParams(query);
  const search = entity.routes.search;
  const { data } = search ? await http.post<Page>(`${restOf(entity)}${search}`, params) : await http.get<Page>(restOf(entity), { params });
  return data;
}
