// A list screen's grid (product.md §D5): server-side paging with the spec's page sizes, sorting,
// a quick search, the entity's filters, CSV export of the filtered rows and a row click. Rows
// come from `load` (the screens pass the data layer's list), so it works the same online and
// offline; rows saved on this device only carry a "not uploaded" chip. Wide screens draw the
// rows with the MUI data grid (GridView, loaded on demand), phones with a light list of the
// same columns (PhoneList, ADR-0024).
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Box, Button, LinearProgress, useMediaQuery, useTheme } from '@mui/material';
import type { GridColumnVisibilityModel } from '@mui/x-data-grid';
import type { EntityShape } from '../../../schemas/define';
import { defaultColumns, gridColumns, rowIdOf, type ColumnOverrides, type GridRow } from './columns';
import { downloadText, useServerChanges } from '../../lib/ui';
import { csvSeparator, fetchAllRows, fileSlug, toCsv, type AllRows } from './csv';
import { messageOf } from '../../lib/http';
import { exportValue, fieldLabel, type DisplayContext } from './fields';
import { useDisplayContext } from './useDisplayContext';
import { gridView } from './gridViewModule';
import { GridFilters, selectableFilters, type MoreFilters } from './GridFilters';
import type { Paging } from './paging';
import PhoneList from './PhoneList';
import { usePage, useGridQuery, wholePage, type Filters, type FirstPage, type PageLoad, type PageSizeMenu } from './useGridQuery';

export interface EntityGridProps<R extends object> {
  entity: EntityShape;
  /** One page of rows: `(query) => dataLayer.listPages(entity, query)` (or `list`). */
  load: PageLoad<R>;
  /** The first page when it is in hand already: `(query) => dataLayer.firstPage(entity, query)`. */
  firstPage?: FirstPage<R>;
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
  /** Page-size menu of product.md §9: 'list' (25, 50, 100, 200; default), 'short' (5, 10, 15, 20),
   * 'medium' (10, 15, 20, 50). */
  pageSizes?: PageSizeMenu;
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
  /** Columns the screen draws itself, placed by their names in `columns`. */
  customColumns?: ColumnOverrides['custom'];
  /** Fields the screen draws itself (a status chip) instead of their label. */
  renderCells?: ColumnOverrides['render'];
  /** Shown instead of the grid's own "no rows" text. */
  emptyText?: string;
  /** Offer a date range (from, to) on the entity's date field. */
  dateRange?: boolean;
  /** The screen's own filters, drawn with the grid's (in the phone's sheet). */
  moreFilters?: MoreFilters;
  /** Told the rows shown whenever they change (a screen acting on "this page": the client
   * list's selection). */
  onRowsShown?: (rows: readonly R[]) => void;
}

/** A change of the list's table on the server (saved in another browser) loads the page shown
 * again at once: live lists (product.md §D6). The changes that follow are at most one reload per
 * this gap (an upload of 50 records is a few reloads, not 50). */
const LIVE_RELOAD_GAP_MS = 300;

const NO_ROWS: readonly never[] = [];

interface Notice {
  severity: 'warning' | 'error';
  text: string;
}

function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

interface CsvColumn {
  header: string;
  cell: (row: GridRow) => string;
}

/** The exported columns: what the grid shows as text, without its buttons. */
function csvColumns(entity: EntityShape, names: readonly string[], ctx: DisplayContext, custom: ColumnOverrides['custom']): CsvColumn[] {
  return names
    .filter((name) => !custom?.[name]?.actions)
    .map((name) => {
      const own = custom?.[name];
      if (own) return { header: own.header, cell: (row: GridRow) => own.text?.(row) ?? '' };
      return { header: fieldLabel(entity, name, ctx.t), cell: (row: GridRow) => exportValue(entity, name, row[name], ctx) };
    });
}

/** The Export button's work: every filtered row, as the grid labels them, into a CSV file. */
function useCsvExport(columns: readonly CsvColumn[], ctx: DisplayContext, fetchAll: () => Promise<AllRows<object>>, baseName: string) {
  const [exporting, setExporting] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const run = async () => {
    setExporting(true);
    setNotice(null);
    try {
      const all = await fetchAll();
      const header = columns.map((column) => column.header);
      const cells = all.rows.map((row) => columns.map((column) => column.cell(row as GridRow)));
      downloadText(toCsv(header, cells, csvSeparator(ctx.lang)), `${fileSlug(baseName)}-${today()}.csv`);
      if (all.truncated)
        setNotice({ severity: 'warning', text: ctx.t('entityGrid.exportTruncated', { count: all.rows.length, total: all.total }) });
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
function userChoices(
  names: readonly string[],
  auto: GridColumnVisibilityModel,
  model: GridColumnVisibilityModel,
): GridColumnVisibilityModel {
  return Object.fromEntries(names.filter((n) => (model[n] ?? true) !== (auto[n] ?? true)).map((n) => [n, model[n] ?? true]));
}

/** The list view's props that are functions or objects, the same from one draw to the next
 * while what they depend on is: the data grid takes a new one for a change, and a new column
 * visibility model lays every row out again (docs/performance.md "The offline client list"). */
function useStableViewProps<R extends object>(
  entity: EntityShape,
  names: readonly string[],
  compactColumns: readonly string[] | undefined,
  narrow: boolean,
  onRowClick: ((row: R) => void) | undefined,
  customColumns: ColumnOverrides['custom'],
) {
  const [shown, setShown] = useState<GridColumnVisibilityModel>({});
  const compactKey = (compactColumns ?? names.slice(0, 2)).join(',');
  const auto = useMemo(() => visibility(names, compactKey.split(','), narrow), [names, compactKey, narrow]);
  const chosen = useMemo(() => ({ ...auto, ...shown }), [auto, shown]);
  return {
    visibility: chosen,
    onVisibilityChange: useCallback((model: GridColumnVisibilityModel) => setShown(userChoices(names, auto, model)), [names, auto]),
    rowId: useCallback((row: GridRow) => rowIdOf(entity, row), [entity]),
    onRowClick: useMemo(() => (onRowClick ? (row: GridRow) => onRowClick(row as R) : undefined), [onRowClick]),
    actionColumn: useCallback((field: string) => Boolean(customColumns?.[field]?.actions), [customColumns]),
  };
}

export function EntityGrid<R extends object>(props: EntityGridProps<R>) {
  const { entity, load, onRowClick, exportable = true, refreshKey, customColumns, renderCells } = props;
  const ctx = useDisplayContext();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const namesKey = (props.columns ?? defaultColumns(entity)).join(',');
  const names = useMemo(() => namesKey.split(',').filter(Boolean), [namesKey]);
  const state = useGridQuery(entity, names, props);
  const page = usePage(load, state.query, refreshKey, props.firstPage);
  const { onRowsShown } = props;
  // No page yet is always the same empty list, so that telling it settles.
  const rowsShown: readonly R[] = page.rows.length ? page.rows : NO_ROWS;
  useEffect(() => onRowsShown?.(rowsShown), [onRowsShown, rowsShown]);
  // Also once the stream opens: a list drawn before it (a full page load) asks its page again.
  useServerChanges([entity.table], page.reload, true, LIVE_RELOAD_GAP_MS, true);
  const columns = useMemo(
    () => gridColumns(entity, names, ctx, { custom: customColumns, render: renderCells }),
    [entity, names, ctx, customColumns, renderCells],
  );
  const filterNames = selectableFilters(entity, props.filters).filter((name) => !(name in (props.fixedFilter ?? {})));
  const title = ctx.t(entity.label);
  const view = useStableViewProps(entity, names, props.compactColumns, narrow, onRowClick, customColumns);
  const paging: Paging = useMemo(
    () => ({
      total: page.total,
      totalIsLowerBound: page.totalIsLowerBound,
      model: state.paginationModel,
      sizes: state.pageSizeOptions,
      onChange: state.setPaginationModel,
    }),
    [page.total, page.totalIsLowerBound, state.paginationModel, state.pageSizeOptions, state.setPaginationModel],
  );

  // A phone draws the light list and never loads the data grid's code (ADR-0035).
  const ListView = narrow ? PhoneList : gridView.Component;

  const csv = useCsvExport(
    csvColumns(entity, names, ctx, customColumns),
    ctx,
    () => fetchAllRows((query) => wholePage(load, query), state.baseQuery),
    props.exportName ?? title,
  );

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
        dateRange={props.dateRange}
        narrow={narrow}
        more={props.moreFilters}
      />
      {csv.notice && (
        <Alert severity={csv.notice.severity} onClose={csv.dismiss}>
          {csv.notice.text}
        </Alert>
      )}
      {page.error !== null && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={page.retry}>
              {ctx.t('entityGrid.retry')}
            </Button>
          }
        >
          {ctx.t('entityGrid.loadFailed', { message: messageOf(page.error) })}
        </Alert>
      )}
      <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 220, width: '100%' }}>
        <Suspense fallback={<LinearProgress aria-label={ctx.t('common.loading')} />}>
          <ListView
            ariaLabel={props.ariaLabel ?? title}
            rows={rowsShown as readonly GridRow[]}
            columns={columns}
            rowId={view.rowId}
            loading={page.loading}
            paging={paging}
            sortModel={state.sortModel}
            onSortModelChange={state.setSortModel}
            visibility={view.visibility}
            onVisibilityChange={view.onVisibilityChange}
            narrow={narrow}
            lang={ctx.lang}
            emptyText={props.emptyText}
            onRowClick={view.onRowClick}
            actionColumn={view.actionColumn}
          />
        </Suspense>
      </Box>
    </Box>
  );
}
