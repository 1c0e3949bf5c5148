// The list state of an EntityGrid (page, sort, search, filters) as one ListQuery, and the page
// that query loads. The grid pages, sorts and filters on the server (or in RxDB offline): it
// only ever holds the rows it shows.
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import type { EntityShape } from '../../../schemas/define';
import { from, lastValueFrom, type Observable, type Subscription } from 'rxjs';
import type { ListQuery, ListResult } from '../../lib/data';
import { appIsOnline } from '../../lib/session';
import { initialPageSize, initialSort, PAGE_SIZE_MENUS, queryOf, type Filters, type GridQueryOptions } from './firstQuery';

export {
  DATE_FROM,
  DATE_TO,
  firstPageQuery,
  PAGE_SIZE_MENUS,
  queryOf,
  type Filters,
  type GridQueryOptions,
  type ListScreen,
  type PageSizeMenu,
} from './firstQuery';

/** One page of rows: a promise, or an observable of the page as it becomes known (the data
 * layer's `listPages`: the server's page first, then with this device's pending records). */
export type PageLoad<R> = (query: ListQuery) => Promise<ListResult<R>> | Observable<ListResult<R>>;

/** The page `load` would give first, when it is in hand already (the data layer's `firstPage`):
 * drawn in the grid's first render instead of a loading frame. */
export type FirstPage<R> = (query: ListQuery) => ListResult<R> | undefined;

/** The page as it is once known whole (the last one an observable gives). */
export function wholePage<R>(load: PageLoad<R>, query: ListQuery): Promise<ListResult<R>> {
  return lastValueFrom(from(load(query)));
}

/** Typing pause before the search goes out: one request per word, not per key. */
export const SEARCH_DEBOUNCE_MS = 400;
/** Offline the list searches the device's store, where no request is spared by waiting: a
 * shorter pause, still long enough that a word typed quickly asks once (ADR-0035 "Offline, a
 * search waits a shorter typing pause"). */
export const LOCAL_SEARCH_DEBOUNCE_MS = 200;

export function useDebouncedValue<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

export function useGridQuery(entity: EntityShape, columns: readonly string[], options: GridQueryOptions) {
  const sizes: readonly number[] = PAGE_SIZE_MENUS[options.pageSizes ?? 'list'];
  const pageSize = initialPageSize(options);
  const [paginationModel, setPaginationModel] = useState<GridPaginationModel>({ page: 0, pageSize });
  const [sortModel, setSortModel] = useState<GridSortModel>(() => initialSort(entity, columns));
  const [search, setSearchText] = useState('');
  const [filters, setFiltersState] = useState<Filters>(options.initialFilter ?? {});
  const q = useDebouncedValue(search, appIsOnline() ? SEARCH_DEBOUNCE_MS : LOCAL_SEARCH_DEBOUNCE_MS);
  const fixedText = JSON.stringify(options.fixedFilter ?? {});
  const baseQuery = useMemo(() => queryOf(sortModel, q, filters, JSON.parse(fixedText) as Filters), [sortModel, q, filters, fixedText]);
  const query = useMemo<ListQuery>(
    () => ({ ...baseQuery, page: paginationModel.page + 1, pageSize: paginationModel.pageSize }),
    [baseQuery, paginationModel],
  );
  // A new search, filter or sort starts again at the first page.
  const firstPage = () => setPaginationModel((model) => (model.page === 0 ? model : { ...model, page: 0 }));
  return {
    pageSizeOptions: sizes,
    paginationModel,
    setPaginationModel,
    sortModel,
    setSortModel: (model: GridSortModel) => {
      setSortModel(model);
      firstPage();
    },
    search,
    setSearch: (text: string) => {
      setSearchText(text);
      firstPage();
    },
    filters,
    setFilters: (next: Filters) => {
      setFiltersState(next);
      firstPage();
    },
    baseQuery,
    query,
  };
}

interface Loaded<R> {
  key: string;
  page: ListResult<R> | null;
  error: unknown;
}

export interface PageState<R> {
  rows: R[];
  total: number;
  /** More rows than `total` (the server's count stopped at its bound). */
  totalIsLowerBound: boolean;
  loading: boolean;
  error: unknown;
}

/** Loads `query` whenever it (or `refreshKey`) changes. Answers that arrive after a newer
 * request are dropped, and the previous rows stay on screen while the next page loads. An
 * observable page is shown at each step (the first one ends the loading). `reload()` asks the
 * page shown again at once, from the caller's event (a change heard on the stream): the request
 * leaves before React renders anything, not after a render and its effects (a live list shows a
 * colleague's save sooner, ADR-0035). */
export function usePage<R>(
  load: PageLoad<R>,
  query: ListQuery,
  refreshKey: unknown,
  first?: FirstPage<R>,
): PageState<R> & { retry: () => void; reload: () => void } {
  const [attempt, setAttempt] = useState(0);
  const key = JSON.stringify([query, refreshKey ?? null, attempt]);
  // The page in hand already is drawn in the first render; `load` is still asked, as usual.
  const [firstShown] = useState(() => first?.(query) ?? null);
  const [loaded, setLoaded] = useState<Loaded<R> | null>(firstShown && { key, page: firstShown, error: null });
  const [lastPage, setLastPage] = useState<ListResult<R> | null>(firstShown);
  // `load` is usually an inline arrow: reading the latest one must not start a request.
  const latest = useRef({ load, query, key });
  useEffect(() => {
    latest.current = { load, query, key };
  });
  const current = useRef<Subscription | null>(null);
  const start = useCallback((q: ListQuery, forKey: string) => {
    current.current?.unsubscribe();
    current.current = from(latest.current.load(q)).subscribe({
      // A new page redraws the grid, a long piece of work on a phone: in slices (ADR-0035).
      next: (page) =>
        startTransition(() => {
          setLoaded({ key: forKey, page, error: null });
          setLastPage(page);
        }),
      error: (error: unknown) => setLoaded({ key: forKey, page: null, error }),
    });
  }, []);
  useEffect(() => {
    latest.current = { ...latest.current, query, key };
    start(query, key);
    return () => current.current?.unsubscribe();
    // `key` names `query`, `refreshKey` and `attempt`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const reload = useCallback(() => {
    const { query: q, key: forKey } = latest.current;
    start(q, forKey);
    setLoaded((was) => (was?.key === forKey ? null : was)); // loading again, the rows kept
  }, [start]);
  const settled = loaded?.key === key;
  return {
    rows: lastPage?.rows ?? [],
    total: lastPage?.total ?? 0,
    totalIsLowerBound: lastPage?.totalIsLowerBound === true,
    loading: !settled,
    error: settled ? loaded.error : null,
    retry: () => setAttempt((n) => n + 1),
    reload,
  };
}
