// A list on a phone (below 600 px, ADR-0024): the page's rows drawn with native elements
// instead of the MUI data grid. On a phone-class CPU the grid's first mount took ~350 ms, its
// store renders synchronously (React cannot slice them), its automatic row heights measured
// every row, and its ~410 KB chunk had to be parsed; this view needs none of that chunk.
// Same props as the grid (GridViewProps), same cells (each column's `draw`, columns.tsx), same
// pager state (paging.ts) and the same semantics: role=grid with its name and row count, column
// headers with aria-sort and a sort button, rows that open on a tap and on Enter, one tab stop
// for the rows (arrow keys move between them).
// Not reproduced from the grid: its column menu and column chooser (a phone shows the screen's
// compact columns), cell-by-cell keyboard focus, and copying a cell with Ctrl+C.
import {
  memo,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { Box, ButtonBase, TablePagination, type SxProps, type Theme } from '@mui/material';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import type { GridSortDirection, GridSortModel } from '@mui/x-data-grid';
import type { GridRow, ListColumn } from './columns';
import { insideControl, RefreshingBar, type GridViewProps } from './listParts';
import { displayedRows, pagerCount, PagingContext, usePager } from './paging';
import { useSay } from '../../lib/session';

/** Rows drawn while a list's first page loads. */
const SKELETON_ROWS = 5;

const C = {
  row: 'IcrsPhoneList-row',
  header: 'IcrsPhoneList-header',
  cell: 'IcrsPhoneList-cell',
  end: 'IcrsPhoneList-end',
  opens: 'IcrsPhoneList-opens',
  sort: 'IcrsPhoneList-sort',
  skeleton: 'IcrsPhoneList-skeleton',
} as const;

// One style for the whole list, rows and cells reached by class: a row is plain elements, with
// no style of its own to compute.
const LIST_SX: SxProps<Theme> = {
  border: 1,
  borderColor: 'divider',
  borderRadius: 1,
  typography: 'body2',
  color: 'text.primary',
  minWidth: 0,
  [`& .${C.row}`]: {
    display: 'grid',
    gridTemplateColumns: 'var(--phone-list-columns)',
    columnGap: 1,
    alignItems: 'center',
    minHeight: 44,
    px: 1,
    borderBottom: 1,
    borderColor: 'divider',
  },
  [`& .${C.header}`]: { fontWeight: 'fontWeightMedium', minHeight: 48 },
  [`& .${C.cell}`]: {
    display: 'flex',
    alignItems: 'center',
    minWidth: 0,
    py: 0.75,
    whiteSpace: 'normal',
    overflowWrap: 'anywhere',
    lineHeight: 1.43,
  },
  [`& .${C.end}`]: { justifyContent: 'flex-end', textAlign: 'right' },
  [`& .${C.opens}`]: { cursor: 'pointer', '&:hover': { bgcolor: 'action.hover' } },
  [`& [role="row"]:focus-visible, & .${C.sort}.Mui-focusVisible`]: {
    outline: (theme: Theme) => `2px solid ${theme.palette.primary.main}`,
    outlineOffset: -2,
  },
  // The sort button fills its header: a tap anywhere on the header sorts, as on the grid.
  [`& .${C.sort}`]: {
    flex: 1,
    alignSelf: 'stretch',
    font: 'inherit',
    color: 'inherit',
    textAlign: 'start',
    gap: 0.5,
    minHeight: 36,
    borderRadius: 1,
    justifyContent: 'flex-start',
  },
  [`& .${C.end} .${C.sort}`]: { justifyContent: 'flex-end', textAlign: 'right' },
  [`& .${C.skeleton}`]: { display: 'block', height: '1em', width: '80%', borderRadius: 1, bgcolor: 'action.hover' },
};

/** The columns' widths, the same for every row so that cells line up: a column of buttons its
 * own width, the others their share of the rest (the first, the name, twice as much). */
function template(columns: readonly ListColumn[]): string {
  return columns.map((column) => (column.flex === 0 && column.width ? `${column.width}px` : `minmax(0, ${column.flex ?? 1}fr)`)).join(' ');
}

function cellClass(align: string | undefined): string {
  return align === 'right' ? `${C.cell} ${C.end}` : C.cell;
}

/** The next sort of a column after a tap: ascending first, then the other way each time. */
export function nextSort(model: GridSortModel, field: string): GridSortModel {
  const now = model.find((item) => item.field === field)?.sort;
  return [{ field, sort: now === 'asc' ? 'desc' : 'asc' }];
}

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

function HeaderCell({
  column,
  index,
  sort,
  onSort,
  hintId,
}: {
  column: ListColumn;
  index: number;
  sort: GridSortDirection;
  onSort: (field: string) => void;
  hintId: string;
}) {
  const label = column.headerName ?? column.field;
  const className = cellClass(column.headerAlign);
  if (column.sortable === false) {
    return (
      <div role="columnheader" aria-colindex={index + 1} className={className}>
        {label}
      </div>
    );
  }
  return (
    <div role="columnheader" aria-colindex={index + 1} aria-sort={sort ? ARIA_SORT[sort] : 'none'} className={className}>
      <ButtonBase className={C.sort} onClick={() => onSort(column.field)} aria-describedby={hintId}>
        {label}
        {sort && <ArrowUpwardIcon fontSize="small" aria-hidden style={sort === 'desc' ? { transform: 'rotate(180deg)' } : undefined} />}
      </ButtonBase>
    </div>
  );
}

/** Arrow keys, Home and End move the focus between the rows of the list (one tab stop). */
function moveFocus(event: KeyboardEvent<HTMLDivElement>): boolean {
  const steps: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, Home: -Infinity, End: Infinity };
  const step = steps[event.key];
  if (step === undefined || event.target !== event.currentTarget) return false;
  const rows = Array.from(event.currentTarget.parentElement?.querySelectorAll<HTMLElement>(':scope > [role="row"][data-id]') ?? []);
  const at = rows.indexOf(event.currentTarget);
  const to = Math.max(0, Math.min(rows.length - 1, at + (Number.isFinite(step) ? step : step > 0 ? rows.length : -rows.length)));
  rows[to]?.focus();
  return true;
}

interface RowProps {
  row: GridRow;
  id: string;
  columns: readonly ListColumn[];
  ariaIndex: number;
  position: number;
  focusable: boolean;
  open?: (row: GridRow) => void;
  onFocusRow: (position: number) => void;
}

const PhoneRow = memo(function PhoneRow({ row, id, columns, ariaIndex, position, focusable, open, onFocusRow }: RowProps) {
  const onClick = open ? (event: MouseEvent<HTMLDivElement>) => !insideControl(event.target) && open(row) : undefined;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (moveFocus(event)) event.preventDefault();
    else if (open && event.key === 'Enter' && !insideControl(event.target)) open(row);
  };
  return (
    <div
      role="row"
      data-id={id}
      aria-rowindex={ariaIndex}
      tabIndex={focusable ? 0 : -1}
      className={open ? `${C.row} ${C.opens}` : C.row}
      onClick={onClick}
      onKeyDown={onKeyDown}
      onFocus={() => onFocusRow(position)}
    >
      {columns.map((column, index) => (
        <div key={column.field} role="gridcell" aria-colindex={index + 1} data-field={column.field} className={cellClass(column.align)}>
          {column.draw(row)}
        </div>
      ))}
    </div>
  );
});

function SkeletonRows({ columns }: { columns: readonly ListColumn[] }) {
  return Array.from({ length: SKELETON_ROWS }, (_, n) => (
    <div key={n} role="row" className={C.row}>
      {columns.map((column) => (
        <div key={column.field} role="gridcell" className={C.cell}>
          <span className={C.skeleton} />
        </div>
      ))}
    </div>
  ));
}

/** The list's pager: the data grid's (ListPagination) as a phone shows it, without the page-size
 * menu (the grid hides it below 600 px too), in the user's language. */
function PhonePagination() {
  const pager = usePager();
  const say = useSay();
  if (!pager) return null;
  const { paging, page, pageSize } = pager;
  const itemLabels = {
    first: 'entityGrid.pageFirst',
    last: 'entityGrid.pageLast',
    next: 'entityGrid.pageNext',
    previous: 'entityGrid.pagePrevious',
  } as const;
  return (
    <TablePagination
      component="div"
      count={pagerCount(paging)}
      page={page}
      rowsPerPage={pageSize}
      rowsPerPageOptions={[]}
      onPageChange={(_event, next) => paging.onChange({ page: next, pageSize })}
      labelDisplayedRows={(rows) => displayedRows(say, rows, paging)}
      getItemAriaLabel={(type) => say(itemLabels[type])}
    />
  );
}

export default function PhoneList(props: GridViewProps) {
  const { rows, sortModel, onSortModelChange, paging, onRowClick, rowId, columns: allColumns, visibility } = props;
  const say = useSay();
  const hintId = useId();
  // The visibility model is a new object at each render: the visible columns stay the same array
  // while their names do, so that the memoised rows are not drawn again.
  const shownKey = allColumns
    .filter((column) => visibility[column.field] !== false)
    .map((column) => column.field)
    .join(',');
  const columns = useMemo(() => {
    const shown = new Set(shownKey.split(','));
    return allColumns.filter((column) => shown.has(column.field));
  }, [allColumns, shownKey]);
  // The row click is usually an inline arrow: rows stay memoised with a stable `open`.
  const latestClick = useRef(onRowClick);
  useEffect(() => {
    latestClick.current = onRowClick;
  });
  const open = useCallback((row: GridRow) => latestClick.current?.(row), []);
  // One tab stop for the rows: the last focused one (the first at the start).
  const [active, setActive] = useState(0);
  const focusable = Math.min(active, Math.max(0, rows.length - 1));
  const onSort = (field: string) => onSortModelChange(nextSort(sortModel, field));
  const firstLoad = props.loading && rows.length === 0;
  const offset = paging.model.page * paging.model.pageSize;
  const sortOf = (field: string): GridSortDirection => sortModel.find((item) => item.field === field)?.sort;
  return (
    <PagingContext value={paging}>
      <RefreshingBar refreshing={props.loading && rows.length > 0} />
      <Box sx={LIST_SX} style={{ '--phone-list-columns': template(columns) } as CSSProperties}>
        <span id={hintId} hidden>
          {say('entityGrid.sortHint')}
        </span>
        <div
          role="grid"
          aria-label={props.ariaLabel}
          aria-rowcount={paging.totalIsLowerBound ? -1 : paging.total + 1}
          aria-colcount={columns.length}
          aria-busy={firstLoad || undefined}
        >
          <div role="rowgroup">
            <div role="row" aria-rowindex={1} className={`${C.row} ${C.header}`}>
              {columns.map((column, index) => (
                <HeaderCell key={column.field} column={column} index={index} sort={sortOf(column.field)} onSort={onSort} hintId={hintId} />
              ))}
            </div>
          </div>
          <div role="rowgroup">
            {firstLoad && <SkeletonRows columns={columns} />}
            {!props.loading && rows.length === 0 && (
              <div role="row" className={C.row}>
                <div role="gridcell" aria-colspan={columns.length} className={C.cell} style={{ gridColumn: '1 / -1' }}>
                  {props.emptyText ?? say('entityGrid.noRows')}
                </div>
              </div>
            )}
            {rows.map((row, position) => {
              const id = rowId(row);
              return (
                <PhoneRow
                  key={id}
                  id={id}
                  row={row}
                  columns={columns}
                  ariaIndex={offset + position + 2}
                  position={position}
                  focusable={position === focusable}
                  open={onRowClick ? open : undefined}
                  onFocusRow={setActive}
                />
              );
            })}
          </div>
        </div>
        <PhonePagination />
      </Box>
    </PagingContext>
  );
}
