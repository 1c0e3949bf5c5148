// A grid's first query, apart from the grid's code (rxjs, the data grid), so the app's start can
// ask a list's first page before the screen is drawn (src/app/listPrefetch.ts).
import type { GridSortModel } from '@mui/x-data-grid';
import type { EntityShape } from '../../../schemas/define';
import type { FilterValue, ListQuery } from '../../lib/data';

/** The page-size menus of product.md §9 ("5, 10, 15, 20; 25, 50, 100, 200; 10, 15, 20, 50"): the
 * main lists offer 25 to 200 rows, a short table inside a page 5 to 20, a page's longer table
 * 10 to 50. Each size is one the list API accepts (PAGE_SIZES of schemas/derive). A menu's
 * first size is its default. */
export const PAGE_SIZE_MENUS = {
  list: [25, 50, 100, 200],
  short: [5, 10, 15, 20],
  medium: [10, 15, 20, 50],
} as const satisfies Record<string, readonly number[]>;

export type PageSizeMenu = keyof typeof PAGE_SIZE_MENUS;

export type Filters = Readonly<Record<string, FilterValue>>;

/** The date range of a list (`dateFrom`/`dateTo` of the list API, on the entity's date field)
 * travels with the filters under these names: no entity has a field of that name. */
export const DATE_FROM = 'dateFrom';
export const DATE_TO = 'dateTo';

export interface GridQueryOptions {
  /** Which page-size menu of product.md §9 (default: the main lists' 25, 50, 100, 200). */
  pageSizes?: PageSizeMenu;
  initialPageSize?: number;
  initialFilter?: Filters;
  /** Filters the user cannot change (a provider's services: `{sp_Id}`). */
  fixedFilter?: Filters;
}

/** The entity's default sort, shown on its column. When that column is not shown the grid
 * would drop the sort (and say so during render): the query then names none, and the server
 * and RxDB apply the same default anyway. */
export function initialSort(entity: EntityShape, columns: readonly string[]): GridSortModel {
  const sort = entity.list?.defaultSort;
  return sort && columns.includes(sort.field) ? [{ field: sort.field, sort: sort.dir }] : [];
}

/** The ListQuery of the grid's state, without paging (what the CSV export fetches whole). */
export function queryOf(sortModel: GridSortModel, q: string, filters: Filters, fixed: Filters): ListQuery {
  const sort = sortModel[0];
  const { [DATE_FROM]: from, [DATE_TO]: to, ...rest } = { ...filters, ...fixed };
  const filter = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== ''));
  return {
    ...(sort?.sort ? { sort: sort.field, dir: sort.sort } : {}),
    ...(q.trim() ? { q: q.trim() } : {}),
    ...(Object.keys(filter).length ? { filter } : {}),
    ...(typeof from === 'string' && from ? { dateFrom: from } : {}),
    ...(typeof to === 'string' && to ? { dateTo: to } : {}),
  };
}

export function initialPageSize(options: GridQueryOptions): number {
  const sizes: readonly number[] = PAGE_SIZE_MENUS[options.pageSizes ?? 'list'];
  return sizes.find((size) => size === options.initialPageSize) ?? (sizes[0] as number);
}

/** A list screen's grid as far as its first page depends on it (each list screen declares it
 * beside itself, and the app asks that page before the screen is drawn). */
export interface ListScreen {
  entity: EntityShape;
  columns: readonly string[];
}

/** The query of a grid's first page, as `useGridQuery` makes it (no search, the initial filters):
 * what the app asks before a list screen is drawn (src/app/listPrefetch.ts). */
export function firstPageQuery(entity: EntityShape, columns: readonly string[], options: GridQueryOptions = {}): ListQuery {
  const base = queryOf(initialSort(entity, columns), '', options.initialFilter ?? {}, options.fixedFilter ?? {});
  return { ...base, page: 1, pageSize: initialPageSize(options) };
}
