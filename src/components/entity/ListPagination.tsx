// The grid's pager, driven by the list's own state. The grid pages on the server (or in RxDB):
// it shows the rows of the page it is given, whatever their number, while its built-in pager
// stops at 100 rows (the MIT Data Grid caps its `pageSize`). Spec §9's lists offer 200, so the
// list keeps the page and its size and this pager shows them, with the grid's own pagination
// control (basePagination) and labels, in the user's language.
import { createContext, useContext, useEffect } from 'react';
import { useGridRootProps, type GridPaginationModel } from '@mui/x-data-grid';

export interface Paging {
  total: number;
  model: GridPaginationModel;
  sizes: readonly number[];
  onChange: (model: GridPaginationModel) => void;
}

export const PagingContext = createContext<Paging | null>(null);

/** The grid's own pagination model: one page holding every row it is given (server mode). */
export const WHOLE_PAGE: GridPaginationModel = { page: 0, pageSize: 100 };

export function ListPagination() {
  const paging = useContext(PagingContext);
  const rootProps = useGridRootProps();
  const total = paging?.total ?? 0;
  const { page, pageSize } = paging?.model ?? { page: 0, pageSize: 1 };
  const lastPage = Math.max(0, Math.ceil(total / pageSize) - 1);
  const onChange = paging?.onChange;
  // Fewer rows than before (a record deleted, uploaded, filtered away elsewhere): back to the
  // last page that has rows rather than an empty one.
  useEffect(() => {
    if (total > 0 && page > lastPage) onChange?.({ page: lastPage, pageSize });
  }, [total, page, lastPage, pageSize, onChange]);
  if (!paging) return null;
  const Base = rootProps.slots.basePagination;
  return (
    <Base
      count={paging.total}
      page={Math.min(page, lastPage)}
      rowsPerPage={pageSize}
      rowsPerPageOptions={paging.sizes}
      onPageChange={(_event, next) => paging.onChange({ page: next, pageSize })}
      onRowsPerPageChange={(size) => paging.onChange({ page: 0, pageSize: size })}
      style={{ flexGrow: 1, maxHeight: 'calc(100% + 1px)' }}
      {...rootProps.slotProps?.basePagination}
    />
  );
}
