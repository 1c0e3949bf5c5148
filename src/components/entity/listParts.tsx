// Small parts shared by the two views of a list, the data grid (GridView, wide screens) and the
// phone list (PhoneList): no grid code here, so the phone list loads none.
import { Box, LinearProgress } from '@mui/material';
import type { GridColumnVisibilityModel, GridSortModel } from '@mui/x-data-grid';
import type { GridRow, ListColumn } from './columns';
import type { Paging } from './paging';
import { useSay } from '../../lib/session';

/** The props of both views of a list: the data grid (GridView.tsx, wide screens) and the phone
 * list (PhoneList.tsx); EntityGrid draws one or the other. */
export interface GridViewProps {
  ariaLabel: string;
  rows: readonly GridRow[];
  columns: ListColumn[];
  rowId: (row: GridRow) => string;
  loading: boolean;
  paging: Paging;
  sortModel: GridSortModel;
  onSortModelChange: (model: GridSortModel) => void;
  visibility: GridColumnVisibilityModel;
  onVisibilityChange: (model: GridColumnVisibilityModel) => void;
  narrow: boolean;
  lang: string;
  emptyText?: string;
  onRowClick?: (row: GridRow) => void;
  /** Whether `field` is a column of buttons (Enter there does the button's work, not the row's). */
  actionColumn: (field: string) => boolean;
}

/** A loading bar with an accessible name, which the grid's own lacks (axe: aria-progressbar-name). */
export function NamedLinearProgress() {
  const say = useSay();
  return <LinearProgress aria-label={say('common.loading')} />;
}

/** The bar above a list whose rows stay shown while the next page loads (a live list reloads at
 * each change). Outside role=grid: a progress bar inside it is refused by screen readers and axe
 * (aria-required-children). */
export function RefreshingBar({ refreshing }: { refreshing: boolean }) {
  return (
    <Box sx={{ height: 4 }} data-testid="grid-refreshing" data-busy={refreshing}>
      {refreshing && <NamedLinearProgress />}
    </Box>
  );
}

/** A click or Enter on a button or link inside a row does its own thing, not the row's. */
export function insideControl(target: EventTarget): boolean {
  return target instanceof Element && target.closest('button, a') !== null;
}
