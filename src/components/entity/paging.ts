// The list's paging, kept by the list itself (useGridQuery) and read by its pager: the data
// grid's (ListPagination, wide screens) or the phone list's (PhonePagination). No grid code here:
// the phone list reads it without loading the data grid.
import { createContext, useContext, useEffect } from 'react';
import type { GridPaginationModel } from '@mui/x-data-grid';
import type { Say } from '../../lib/session';

export interface Paging {
  total: number;
  /** More rows than `total`: the server counts up to a bound (docs/api.md "Lists"). */
  totalIsLowerBound?: boolean;
  model: GridPaginationModel;
  sizes: readonly number[];
  onChange: (model: GridPaginationModel) => void;
}

export const PagingContext = createContext<Paging | null>(null);

/** The grid's own pagination model: one page holding every row it is given (server mode). */
export const WHOLE_PAGE: GridPaginationModel = { page: 0, pageSize: 100 };

export interface PagerState {
  paging: Paging;
  /** The page shown: never past the last one that has rows. */
  page: number;
  pageSize: number;
}

/** The paging of the list around the pager (null outside one). Fewer rows than before (a record
 * deleted, uploaded, filtered away elsewhere) go back to the last page that has rows rather than
 * an empty one. */
export function usePager(): PagerState | null {
  const paging = useContext(PagingContext);
  const total = paging?.total ?? 0;
  const { page, pageSize } = paging?.model ?? { page: 0, pageSize: 1 };
  // Beyond a bounded count there are more pages than it tells: the next one at least.
  const lastPage = paging?.totalIsLowerBound ? Number.MAX_SAFE_INTEGER : Math.max(0, Math.ceil(total / pageSize) - 1);
  const onChange = paging?.onChange;
  useEffect(() => {
    if (total > 0 && page > lastPage) onChange?.({ page: lastPage, pageSize });
  }, [total, page, lastPage, pageSize, onChange]);
  return paging && { paging, page: Math.min(page, lastPage), pageSize };
}

/** The pager's count: the rows' number, or -1 (unknown, the pager's "more than") beyond a bound. */
export const pagerCount = (paging: Paging): number => (paging.totalIsLowerBound ? -1 : paging.total);

/** "1–10 of 42", or "1–10 of more than 10,000" when the count stopped at its bound, in the
 * user's language: the pagers of every list (the grid's and the phone's). */
export function displayedRows(say: Say, { from, to }: { from: number; to: number }, paging: Paging): string {
  const id = paging.totalIsLowerBound ? 'entityGrid.displayedRowsMore' : 'entityGrid.displayedRows';
  return say(id, { from, to, count: paging.total });
}

/** A list's count as a short text: "42", or "more than 10,000" beyond the bound; `t` translates
 * (useSay's say, or a screen's DisplayContext t). */
export function countText(
  t: (id: string, values: Record<string, number>) => string,
  total: number,
  totalIsLowerBound: boolean | undefined,
): string {
  return totalIsLowerBound ? t('entityGrid.countMore', { count: total }) : String(total);
}
