// The list's paging, kept by the list itself (useGridQuery) and read by its pager: the data
// grid's (ListPagination, wide screens) or the phone list's (PhonePagination). No grid code here:
// the phone list reads it without loading the data grid.
import { createContext, useContext, useEffect } from 'react';
import type { GridPaginationModel } from '@mui/x-data-grid';

export interface Paging {
  total: number;
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
  const lastPage = Math.max(0, Math.ceil(total / pageSize) - 1);
  const onChange = paging?.onChange;
  useEffect(() => {
    if (total > 0 && page > lastPage) onChange?.({ page: lastPage, pageSize });
  }, [total, page, lastPage, pageSize, onChange]);
  return paging && { paging, page: Math.min(page, lastPage), pageSize };
}
