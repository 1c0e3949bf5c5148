// A list of services built from EntityGrid's parts (query state, page loading, filters, derived
// columns) for the screens that need more than field labels: status chips, the provider's name
// and row actions (approve, reject, edit). EntityGrid draws only the entity's own fields.
import { useMemo, type ReactNode } from 'react';
import { Alert, Box, Button, LinearProgress, useMediaQuery, useTheme } from '@mui/material';
import { DataGrid, GridOverlay, type GridColDef, type GridRenderCellParams } from '@mui/x-data-grid';
import { frFR } from '@mui/x-data-grid/locales';
import { useIntl } from 'react-intl';
import { service } from '../../../schemas/index';
import { buildColumns, langOf, messageOf, useLookupLists, type DisplayContext } from '../../components/entity';
import { rowIdOf, type GridRow } from '../../components/entity/columns';
import { GridFilters, selectableFilters } from '../../components/entity/GridFilters';
import { GRID_PAGE_SIZES, useGridQuery, usePage, type Filters } from '../../components/entity/useGridQuery';
import type { ListQuery, ListResult } from '../../lib/datalayer/types';

/** A column the screen draws itself, placed by its name in `columns`. */
export interface ExtraColumn {
  header: string;
  render: (row: GridRow) => ReactNode;
  /** Text of the cell for copy and screen readers; default none. */
  text?: (row: GridRow) => string;
  width?: number;
  /** Buttons: not a click on the row. */
  actions?: boolean;
}

export interface ServiceGridProps {
  load: (query: ListQuery) => Promise<ListResult<GridRow>>;
  /** Service fields and names of `extra` columns, in order. */
  columns: readonly string[];
  /** Columns kept below 600 px. */
  compactColumns: readonly string[];
  extra?: Readonly<Record<string, ExtraColumn>>;
  /** Service fields drawn by the screen (the status chip) instead of their label. */
  render?: Readonly<Record<string, (row: GridRow) => ReactNode>>;
  filters?: readonly string[];
  fixedFilter?: Filters;
  onRowClick?: (row: GridRow) => void;
  refreshKey?: unknown;
  ariaLabel: string;
  /** Shown instead of the grid's own "no rows" text. */
  emptyText?: string;
}

function useDisplayContext(): DisplayContext {
  const intl = useIntl();
  const lists = useLookupLists();
  return useMemo(() => ({ lang: langOf(intl.locale), lists, t: (id, values) => intl.formatMessage({ id }, values) }), [intl, lists]);
}

/** The grid's own loading bar has no accessible name (axe: aria-progressbar-name). */
function Loading() {
  const intl = useIntl();
  return (
    <GridOverlay style={{ display: 'block' }}>
      <LinearProgress aria-label={intl.formatMessage({ id: 'common.loading' })} />
    </GridOverlay>
  );
}

function extraColumn(name: string, extra: ExtraColumn): GridColDef<GridRow> {
  return {
    field: name,
    headerName: extra.header,
    sortable: false,
    flex: extra.actions ? 0 : 1,
    minWidth: extra.width ?? 140,
    width: extra.actions ? (extra.width ?? 140) : undefined,
    valueGetter: (_value: never, row: GridRow) => extra.text?.(row) ?? '',
    renderCell: (params: GridRenderCellParams<GridRow>) => extra.render(params.row),
    ...(extra.actions ? { align: 'right' as const, headerAlign: 'right' as const, disableColumnMenu: true } : {}),
  };
}

function useColumns(names: readonly string[], props: ServiceGridProps, ctx: DisplayContext): GridColDef<GridRow>[] {
  const { extra, render } = props;
  return useMemo(() => {
    const own = names.filter((name) => !extra?.[name]);
    const derived = new Map(buildColumns(service, own, ctx).map((column) => [column.field, column as GridColDef<GridRow>]));
    return names.map((name) => {
      const custom = extra?.[name];
      if (custom) return extraColumn(name, custom);
      const column = derived.get(name) as GridColDef<GridRow>;
      const draw = render?.[name];
      return draw ? { ...column, renderCell: (params: GridRenderCellParams<GridRow>) => draw(params.row) } : column;
    });
  }, [names, extra, render, ctx]);
}

export function ServiceGrid(props: ServiceGridProps) {
  const { load, onRowClick, refreshKey, extra } = props;
  const ctx = useDisplayContext();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const namesKey = props.columns.join(',');
  const names = useMemo(() => namesKey.split(','), [namesKey]);
  const state = useGridQuery(service, names, { fixedFilter: props.fixedFilter });
  const page = usePage(load, state.query, refreshKey);
  const columns = useColumns(names, props, ctx);
  const filterNames = selectableFilters(service, props.filters).filter((name) => !(name in (props.fixedFilter ?? {})));
  const visibility = narrow ? Object.fromEntries(names.map((name) => [name, props.compactColumns.includes(name)])) : {};
  const isAction = (field: string) => extra?.[field]?.actions === true;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, minWidth: 0 }}>
      <GridFilters
        entity={service}
        ctx={ctx}
        search={state.search}
        onSearch={state.setSearch}
        filterNames={filterNames}
        filters={state.filters}
        onFilters={state.setFilters}
        exporting={false}
      />
      {page.error !== null && (
        <Alert severity="error" action={<Button color="inherit" size="small" onClick={page.retry}>{ctx.t('entityGrid.retry')}</Button>}>
          {ctx.t('entityGrid.loadFailed', { message: messageOf(page.error) })}
        </Alert>
      )}
      <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 220, width: '100%' }}>
        <DataGrid
          aria-label={props.ariaLabel}
          rows={page.rows}
          columns={columns}
          getRowId={(row) => rowIdOf(service, row)}
          rowCount={page.total}
          loading={page.loading}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          pageSizeOptions={[...GRID_PAGE_SIZES]}
          paginationModel={state.paginationModel}
          onPaginationModelChange={state.setPaginationModel}
          sortModel={state.sortModel}
          onSortModelChange={state.setSortModel}
          sortingOrder={['asc', 'desc']}
          disableColumnFilter
          disableRowSelectionOnClick
          columnVisibilityModel={visibility}
          density={narrow ? 'compact' : 'standard'}
          getRowHeight={() => 'auto'}
          slots={{ loadingOverlay: Loading }}
          localeText={{
            ...(ctx.lang === 'fr' ? frFR.components.MuiDataGrid.defaultProps.localeText : {}),
            ...(props.emptyText ? { noRowsLabel: props.emptyText } : {}),
          }}
          // A button or link inside a row does its own thing, not the row's.
          onRowClick={onRowClick ? (params, event) => !(event.target as HTMLElement).closest('button, a') && onRowClick(params.row) : undefined}
          onCellKeyDown={onRowClick ? (params, event) => event.key === 'Enter' && !isAction(params.field) && onRowClick(params.row) : undefined}
          sx={{
            '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 0.75 },
            ...(onRowClick ? { '& .MuiDataGrid-row': { cursor: 'pointer' } } : {}),
          }}
        />
      </Box>
    </Box>
  );
}
