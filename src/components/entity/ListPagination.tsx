// The grid's pager, driven by the list's own state. The grid pages on the server (or in RxDB):
// it shows the rows of the page it is given, whatever their number, while its built-in pager
// stops at 100 rows (the MIT Data Grid caps its `pageSize`). product.md §9's lists offer 200, so the
// list keeps the page and its size and this pager shows them, with the grid's own pagination
// control (basePagination) and labels, in the user's language. The phone list has its own
// (PhonePagination), on the same state (paging.ts).
import { useGridRootProps } from '@mui/x-data-grid';
import { useSay } from '../../lib/session';
import { displayedRows, pagerCount, usePager } from './paging';

export { PagingContext, WHOLE_PAGE, type Paging } from './paging';

export function ListPagination() {
  const pager = usePager();
  const rootProps = useGridRootProps();
  const say = useSay();
  if (!pager) return null;
  const { paging, page, pageSize } = pager;
  const Base = rootProps.slots.basePagination;
  return (
    <Base
      count={pagerCount(paging)}
      page={page}
      rowsPerPage={pageSize}
      rowsPerPageOptions={paging.sizes}
      onPageChange={(_event, next) => paging.onChange({ page: next, pageSize })}
      onRowsPerPageChange={(size) => paging.onChange({ page: 0, pageSize: size })}
      style={{ flexGrow: 1, maxHeight: 'calc(100% + 1px)' }}
      {...rootProps.slotProps?.basePagination}
      material={{ labelDisplayedRows: (rows: { from: number; to: number }) => displayedRows(say, rows, paging) }}
    />
  );
}
