// The data grid itself, loaded on demand by EntityGrid (ADR-0035): the only module of this
// folder that needs the grid's code at run time.
import { useMemo, type KeyboardEvent, type MouseEvent } from 'react';
import { DataGrid, type GridCellParams, type GridRowParams, type GridSortDirection, type MuiEvent } from '@mui/x-data-grid';
import { frFR } from '@mui/x-data-grid/locales';
import type { GridRow } from './columns';
import { insideControl, NamedLinearProgress, RefreshingBar, type GridViewProps } from './listParts';
import { ListPagination, PagingContext, WHOLE_PAGE } from './ListPagination';

export type { GridViewProps };

// The grid's props are kept the same from one draw to the next unless their content changes: the
// grid takes a new function or object for a change, and a new `getRowHeight` or column
// visibility model measures every row again (docs/performance.md "The offline client list").
const autoRowHeight = () => 'auto' as const;
const SLOTS = { baseLinearProgress: NamedLinearProgress, pagination: ListPagination };
const PAGE_SIZE_OPTIONS = [WHOLE_PAGE.pageSize];
const SORTING_ORDER: GridSortDirection[] = ['asc', 'desc'];
const CELL_SX = {
  display: 'flex',
  alignItems: 'center',
  py: 0.75,
  whiteSpace: 'normal',
  overflowWrap: 'anywhere',
  lineHeight: 1.43,
};
const GRID_SX = { '& .MuiDataGrid-cell': CELL_SX };
const CLICKABLE_GRID_SX = { ...GRID_SX, '& .MuiDataGrid-row': { cursor: 'pointer' } };

function useLocaleText(lang: string, emptyText: string | undefined) {
  return useMemo(
    () => ({
      ...(lang === 'fr' ? frFR.components.MuiDataGrid.defaultProps.localeText : {}),
      ...(emptyText ? { noRowsLabel: emptyText } : {}),
    }),
    [lang, emptyText],
  );
}

/** The row click and Enter on a cell, the same functions while `onRowClick` is. */
function useRowActions(onRowClick: GridViewProps['onRowClick'], actionColumn: GridViewProps['actionColumn']) {
  return useMemo(
    () =>
      onRowClick
        ? {
            onRowClick: (params: GridRowParams, event: MuiEvent<MouseEvent>) =>
              !insideControl(event.target) && onRowClick(params.row as GridRow),
            onCellKeyDown: (params: GridCellParams, event: MuiEvent<KeyboardEvent>) =>
              event.key === 'Enter' && !actionColumn(params.field) && onRowClick(params.row as GridRow),
          }
        : { onRowClick: undefined, onCellKeyDown: undefined },
    [onRowClick, actionColumn],
  );
}

export default function GridView(props: GridViewProps) {
  const { onRowClick } = props;
  const localeText = useLocaleText(props.lang, props.emptyText);
  const actions = useRowActions(onRowClick, props.actionColumn);
  // Rows already shown stay while the next page loads (a live list reloads at each change), with
  // a bar above the grid: the grid's own overlay would put a progress bar inside role=grid,
  // which screen readers and axe refuse (aria-required-children). A first load (no rows yet)
  // shows the grid's skeleton rows.
  const refreshing = props.loading && props.rows.length > 0;
  return (
    <PagingContext value={props.paging}>
      <RefreshingBar refreshing={refreshing} />
      <DataGrid
        aria-label={props.ariaLabel}
        rows={props.rows}
        columns={props.columns}
        getRowId={props.rowId}
        rowCount={props.paging.total}
        loading={props.loading && props.rows.length === 0}
        paginationMode="server"
        sortingMode="server"
        filterMode="server"
        pageSizeOptions={PAGE_SIZE_OPTIONS}
        paginationModel={WHOLE_PAGE}
        sortModel={props.sortModel}
        onSortModelChange={props.onSortModelChange}
        sortingOrder={SORTING_ORDER}
        disableColumnFilter
        disableRowSelectionOnClick
        columnVisibilityModel={props.visibility}
        onColumnVisibilityModelChange={props.onVisibilityChange}
        density={props.narrow ? 'compact' : 'standard'}
        // Names are read whole (product.md §9 lists, phones included): cells wrap, rows grow.
        getRowHeight={autoRowHeight}
        slots={SLOTS}
        localeText={localeText}
        onRowClick={actions.onRowClick}
        onCellKeyDown={actions.onCellKeyDown}
        sx={onRowClick ? CLICKABLE_GRID_SX : GRID_SX}
      />
    </PagingContext>
  );
}
