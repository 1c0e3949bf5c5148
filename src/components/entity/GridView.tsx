// The data grid itself, loaded on demand by EntityGrid (ADR-0035): the only module of this
// folder that needs the grid's code at run time.
import { DataGrid } from '@mui/x-data-grid';
import { frFR } from '@mui/x-data-grid/locales';
import type { GridRow } from './columns';
import { insideControl, NamedLinearProgress, RefreshingBar, type GridViewProps } from './listParts';
import { ListPagination, PagingContext, WHOLE_PAGE } from './ListPagination';

export type { GridViewProps };

export default function GridView(props: GridViewProps) {
  const { onRowClick } = props;
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
        // Names are read whole (product.md §9 lists, phones included): cells wrap, rows grow.
        getRowHeight={() => 'auto'}
        slots={{ baseLinearProgress: NamedLinearProgress, pagination: ListPagination }}
        localeText={{
          ...(props.lang === 'fr' ? frFR.components.MuiDataGrid.defaultProps.localeText : {}),
          ...(props.emptyText ? { noRowsLabel: props.emptyText } : {}),
        }}
        onRowClick={onRowClick ? (params, event) => !insideControl(event.target) && onRowClick(params.row as GridRow) : undefined}
        onCellKeyDown={
          onRowClick
            ? (params, event) => event.key === 'Enter' && !props.actionColumn(params.field) && onRowClick(params.row as GridRow)
            : undefined
        }
        sx={{
          '& .MuiDataGrid-cell': {
            display: 'flex',
            alignItems: 'center',
            py: 0.75,
            whiteSpace: 'normal',
            overflowWrap: 'anywhere',
            lineHeight: 1.43,
          },
          ...(onRowClick ? { '& .MuiDataGrid-row': { cursor: 'pointer' } } : {}),
        }}
      />
    </PagingContext>
  );
}
