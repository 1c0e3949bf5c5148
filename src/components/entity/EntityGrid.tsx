// A list screen's grid (design.md §5): server-side paging with the spec's page sizes, sorting,
// a quick search, the entity's filters, CSV export of the filtered rows and a row click. Rows
// come from `load` (the screens pass the data layer's list), so it works the same online and
// offline; rows saved on this device only carry a "not uploaded" chip.
import { useMemo, useState } from 'react';
import { Alert, Box, Button, useMediaQuery, useTheme } from '@mui/material';
import { DataGrid, type GridColumnVisibilityModel } from '@mui/x-data-grid';
import { frFR } from '@mui/x-data-grid/locales';
import { useIntl } from 'react-intl';
import type { EntityShape } from '../../../schemas/define';
import type { ListQuery, ListResult } from '../../lib/datalayer/types';
import { buildColumns, defaultColumns, rowIdOf, type GridRow } from './columns';
import { downloadText } from '../../lib/download';
import { csvSeparator, fetchAllRows, fileSlug, toCsv, type AllRows } from './csv';
import { messageOf } from './errors';
import { exportValue, fieldLabel, type DisplayContext, type Translate } from './fields';
import { GridFilters, selectableFilters } from './GridFilters';
import { langOf, useLookupLists } from './lookups';
import { GRID_PAGE_SIZES, usePage, useGridQuery, type Filters } from './useGridQuery';

export interface EntityGridProps<R extends object> {
  entity: EntityShape;
  /** One page of rows: `(query) => dataLayer.list(entity, query)`. */
  load: (query: ListQuery) => Promise<ListResult<R>>;
  /** Fields shown, in order (system fields such as createdAt allowed); default: every readable
   * declared field. */
  columns?: readonly string[];
  /** Columns kept on a phone (below 600 px); default: the first two. */
  compactColumns?: readonly string[];
  /** Filter selects shown; default: the entity's lookup, enum and boolean list filters. */
  filters?: readonly string[];
  initialFilter?: Filters;
  /** Filters applied and not shown (a provider's services: `{ sp_Id }`). */
  fixedFilter?: Filters;
  initialPageSize?: number;
  onRowClick?: (row: R) => void;
  /** Show the CSV export button (default true). */
  exportable?: boolean;
  /** Base of the CSV file name; default the entity's translated name. */
  exportName?: string;
  /** Change it to load the page again (after a save, a verification, an upload). */
  refreshKey?: unknown;
  /** Accessible name of the grid; default the entity's translated name. */
  ariaLabel?: string;
}

interface Notice {
  severity: 'warning' | 'error';
  text: string;
}

function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function useDisplayContext(): DisplayContext {
  const intl = useIntl();
  const lists = useLookupLists();
  return useMemo(() => {
    const t: Translate = (id, values) => intl.formatMessage({ id }, values);
    return { lang: langOf(intl.locale), lists, t };
  }, [intl, lists]);
}

/** The Export button's work: every filtered row, as the grid labels them, into a CSV file. */
function useCsvExport(entity: EntityShape, names: readonly string[], ctx: DisplayContext, fetchAll: () => Promise<AllRows<object>>, baseName: string) {
  const [exporting, setExporting] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const run = async () => {
    setExporting(true);
    setNotice(null);
    try {
      const all = await fetchAll();
      const header = names.map((name) => fieldLabel(entity, name, ctx.t));
      const cells = all.rows.map((row) => names.map((name) => exportValue(entity, name, (row as GridRow)[name], ctx)));
      downloadText(toCsv(header, cells, csvSeparator(ctx.lang)), `${fileSlug(baseName)}-${today()}.csv`);
      if (all.truncated) setNotice({ severity: 'warning', text: ctx.t('entityGrid.exportTruncated', { count: all.rows.length, total: all.total }) });
    } catch (error) {
      setNotice({ severity: 'error', text: ctx.t('entityGrid.exportFailed', { message: messageOf(error) }) });
    } finally {
      setExporting(false);
    }
  };
  return { exporting, notice, run, dismiss: () => setNotice(null) };
}

/** Hides all but `keep` on narrow screens: a phone shows two readable columns rather than six
 * squeezed ones; the row click opens the rest. */
function visibility(names: readonly string[], keep: readonly string[], narrow: boolean): GridColumnVisibilityModel {
  if (!narrow) return {};
  return Object.fromEntries(names.map((name) => [name, keep.includes(name)]));
}

/** What the user changed in the column menu compared with the automatic choice, so that going
 * back to a wide screen shows the columns the phone layout hid. */
function userChoices(names: readonly string[], auto: GridColumnVisibilityModel, model: GridColumnVisibilityModel): GridColumnVisibilityModel {
  return Object.fromEntries(names.filter((n) => (model[n] ?? true) !== (auto[n] ?? true)).map((n) => [n, model[n] ?? true]));
}

export function EntityGrid<R extends object>(props: EntityGridProps<R>) {
  const { entity, load, onRowClick, exportable = true, refreshKey } = props;
  const ctx = useDisplayContext();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const namesKey = (props.columns ?? defaultColumns(entity)).join(',');
  const names = useMemo(() => namesKey.split(',').filter(Boolean), [namesKey]);
  const state = useGridQuery(entity, names, props);
  const page = usePage(load, state.query, refreshKey);
  const [shown, setShown] = useState<GridColumnVisibilityModel>({});
  const columns = useMemo(() => buildColumns(entity, names, ctx), [entity, names, ctx]);
  const filterNames = selectableFilters(entity, props.filters).filter((name) => !(name in (props.fixedFilter ?? {})));
  const title = ctx.t(entity.label);
  const auto = visibility(names, props.compactColumns ?? names.slice(0, 2), narrow);

  const csv = useCsvExport(entity, names, ctx, () => fetchAllRows(load, state.baseQuery), props.exportName ?? title);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, minWidth: 0 }}>
      <GridFilters
        entity={entity}
        ctx={ctx}
        search={state.search}
        onSearch={state.setSearch}
        filterNames={filterNames}
        filters={state.filters}
        onFilters={state.setFilters}
        exporting={csv.exporting}
        onExport={exportable ? () => void csv.run() : undefined}
      />
      {csv.notice && (
        <Alert severity={csv.notice.severity} onClose={csv.dismiss}>
          {csv.notice.text}
        </Alert>
      )}
      {page.error !== null && (
        <Alert severity="error" action={<Button color="inherit" size="small" onClick={page.retry}>{ctx.t('entityGrid.retry')}</Button>}>
          {ctx.t('entityGrid.loadFailed', { message: messageOf(page.error) })}
        </Alert>
      )}
      <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 220, width: '100%' }}>
        <DataGrid
          aria-label={props.ariaLabel ?? title}
          rows={page.rows as GridRow[]}
          columns={columns}
          getRowId={(row) => rowIdOf(entity, row)}
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
          columnVisibilityModel={{ ...auto, ...shown }}
          onColumnVisibilityModelChange={(model) => setShown(userChoices(names, auto, model))}
          density={narrow ? 'compact' : 'standard'}
          localeText={ctx.lang === 'fr' ? frFR.components.MuiDataGrid.defaultProps.localeText : undefined}
          onRowClick={onRowClick ? (params) => onRowClick(params.row as R) : undefined}
          onCellKeyDown={onRowClick ? (params, event) => event.key === 'Enter' && onRowClick(params.row as R) : undefined}
          sx={onRowClick ? { '& .MuiDataGrid-row': { cursor: 'pointer' } } : undefined}
        />
      </Box>
    </Box>
  );
}
