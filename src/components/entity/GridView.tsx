// The data grid itself, loaded on demand by EntityGrid (issue 16): the only module of this
// folder that needs the grid's code at run time.
import { Box, LinearProgress } from '@mui/material';
import { DataGrid, type GridColDef, type GridColumnVisibilityModel, type GridSortModel } from '@mui/x-data-grid';
import { frFR } from '@mui/x-data-grid/locales';
import { useIntl } from 'react-intl';
import type { GridRow } from './columns';
import { ListPagination, PagingContext, WHOLE_PAGE, type Paging } from './ListPagination';

export interface GridViewProps {
  ariaLabel: string;
  rows: GridRow[];
  columns: GridColDef<GridRow>[];
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

/** The grid's loading bar (over rows already shown; an empty grid shows skeleton rows) with
 * an accessible name, which the grid's own lacks (axe: aria-progressbar-name). */
function NamedLinearProgress() {
  const intl = useIntl();
  return <LinearProgress aria-label={intl.formatMessage({ id: 'common.loading' })} />;
}

/** A click or Enter on a button or link inside a row does its own thing, not the row's. */
function insideControl(target: EventTarget): boolean {
  return target instanceof Element && target.closest('button, a') !== null;
}

export default function GridView(props: GridViewProps) {
  const { onRowClick } = props;
  // Rows already shown stay while the next page loads (a live list reloads at each change), with
  // a bar above the grid: the grid's own overlay would put a progress bar inside role=grid,
  // which screen readers and axe refuse (aria-required-children). A first load (no rows yet)
  // shows the grid's skeleton rows.
  const refreshing = props.loading && props.rows.length > 0;
  return (
    <PagingContext value={props.paging}>
      <Box sx={{ height: 4 }} data-testid="grid-refreshing" data-busy={refreshing}>
        {refreshing && <NamedLinearProgress />}
      </Box>
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
        pageSizeOptions={[WHOLE_PAGE.pageSize]}
        paginationModel={WHOLE_PAGE}
        sortModel={props.sortModel}
        onSortModelChange={props.onSortModelChange}
        sortingOrder={['asc', 'desc']}
        disableColumnFilter
        disableRowSelectionOnClick
        columnVisibilityModel={props.visibility}
        onColumnVisibilityModelChange={props.onVisibilityChange}
        density={props.narrow ? 'compact' : 'standard'}
        // Names are read whole (spec §9 lists, phones included): cells wrap, rows grow.
        getRowHeight={() => 'auto'}
        slots={{ baseLinearProgress: NamedLinearProgress, pagination: ListPagination }}
        localeText={{
          ...(props.lang === 'fr' ? frFR.components.MuiDataGrid.defaultProps.localeText : {}),
          ...(props.emptyText ? { noRowsLabel: props.emptyText } : {}),
        }}
        onRowClick={onRowClick ? (params, event) => !insideControl(event.target) && onRowClick(params.row as GridRow) : undefined}
        onCellKeyDown={onRowClick ? (params, event) => event.key === 'Enter' && !props.actionColumn(params.field) && onRowClick(params.row as GridRow) : undefined}
        sx={{
          '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 0.75, whiteSpace: 'normal', overflowWrap: 'anywhere', lineHeight: 1.43 },
          ...(onRowClick ? { '& .MuiDataGrid-row': { cursor: 'pointer' } } : {}),
        }}
      />
    </PagingContext>
  );
}
