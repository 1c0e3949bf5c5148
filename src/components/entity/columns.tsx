// List columns derived from an entity's declaration: the header is the field's label, the cell
// its display value (lookup and enum labels, short dates), and the first column carries the
// "not uploaded" chip of rows saved on this device only (product.md §D6). Each column says once
// how its cell is drawn (`draw`): the data grid (wide screens) and the phone list both use it.
import type { ReactNode } from 'react';
import { Box } from '@mui/material';
import { AmberChip } from '../AmberChip';
import type { GridColDef, GridRenderCellParams, GridValidRowModel } from '@mui/x-data-grid';
import type { EntityShape } from '../../../schemas/define';
import { formatDate } from '../../lib/ui';
import { displayValue, fieldLabel, isListable, isSortable, requireField, type DisplayContext } from './fields';

export type GridRow = GridValidRowModel;

/** The columns a list shows when the screen does not choose: the entity's readable fields. */
export function defaultColumns(entity: EntityShape): string[] {
  return Object.entries(entity.fields)
    .filter(([, field]) => isListable(field))
    .map(([name]) => name);
}

export function isPendingRow(row: GridRow): boolean {
  return row.syncState === 'pending';
}

/** What a cell shows for `row`: one function per column, for both views of a list. */
export type CellDraw = (row: GridRow) => ReactNode;

/** A list column: the data grid's column definition (header, sorting, widths, the value as
 * text) and how its cell is drawn. */
export type ListColumn = GridColDef<GridRow> & { draw: CellDraw };

function FirstCell({ value, pending, label }: { value: string; pending: boolean; label: string }) {
  if (!pending) return value;
  return (
    // The name first and whole, the mark on its own line below: it never covers the name.
    <Box component="span" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.5, minWidth: 0 }}>
      <Box component="span" data-testid="row-title">
        {value}
      </Box>
      <AmberChip label={label} testId="not-uploaded" />
    </Box>
  );
}

/** The data grid draws a column's cell with the column's own `draw`. */
function renderWith(draw: CellDraw) {
  return (params: GridRenderCellParams<GridRow>) => draw(params.row);
}

/** What a cell shows: the display value, with date-times as their day (product.md §9: date columns
 * show short month, day and year; the time stays in the record's page and the CSV). */
export function cellValue(entity: EntityShape, name: string, value: unknown, ctx: DisplayContext): string {
  const field = requireField(entity, name, 'EntityGrid');
  if (field.kind === 'string' && field.format === 'date-time') return formatDate(value as string | null | undefined, ctx.lang);
  return displayValue(entity, name, value, ctx);
}

/** One column per name, in that order. Throws on a name the entity lacks: a typo in a screen
 * should fail its first test, not show an empty column. */
export function buildColumns(
  entity: EntityShape,
  names: readonly string[],
  ctx: DisplayContext,
): (GridColDef<GridRow, string> & { draw: CellDraw })[] {
  const notUploaded = ctx.t('entityGrid.notUploaded');
  return names.map((name, index) => {
    const field = requireField(entity, name, 'EntityGrid');
    const numeric = field.kind === 'integer' || field.kind === 'number';
    const text = (row: GridRow) => cellValue(entity, name, row[name], ctx);
    // The first column names the row and carries the "not uploaded" mark; the others are text.
    const draw: CellDraw = index === 0 ? (row) => <FirstCell value={text(row)} pending={isPendingRow(row)} label={notUploaded} /> : text;
    const column: GridColDef<GridRow, string> & { draw: CellDraw } = {
      field: name,
      headerName: fieldLabel(entity, name, ctx.t),
      // The first column names the row: it gets the room, so names wrap on fewer lines.
      flex: index === 0 ? 2 : 1,
      minWidth: index === 0 ? 180 : numeric ? 90 : 140,
      sortable: isSortable(field),
      // Labels, not raw ids, so what the grid shows (and copies) is what people read.
      valueGetter: (_value: never, row: GridRow) => text(row),
      ...(numeric ? { align: 'right' as const, headerAlign: 'right' as const } : {}),
      draw,
    };
    if (index === 0) column.renderCell = renderWith(draw);
    return column;
  });
}

/** A column a screen draws itself (a provider's name, a comment, row actions), placed by its
 * name among the entity's fields. */
export interface CustomColumn {
  header: string;
  render: (row: GridRow) => ReactNode;
  /** The cell as text, for the CSV export, copying and screen readers; default none. */
  text?: (row: GridRow) => string;
  width?: number;
  /** Buttons: a click or Enter there is not the row's, and the CSV leaves the column out. */
  actions?: boolean;
}

/** How a screen changes the derived columns: its own columns, and its own drawing of some of
 * the entity's fields (a status as a chip). */
export interface ColumnOverrides {
  custom?: Readonly<Record<string, CustomColumn>>;
  render?: Readonly<Record<string, (row: GridRow) => ReactNode>>;
}

function customColumn(name: string, custom: CustomColumn): ListColumn {
  return {
    field: name,
    headerName: custom.header,
    sortable: false,
    flex: custom.actions ? 0 : 1,
    minWidth: custom.width ?? 140,
    width: custom.actions ? (custom.width ?? 140) : undefined,
    valueGetter: (_value: never, row: GridRow) => custom.text?.(row) ?? '',
    renderCell: renderWith(custom.render),
    ...(custom.actions ? { align: 'right' as const, headerAlign: 'right' as const, disableColumnMenu: true } : {}),
    draw: custom.render,
  };
}

/** The grid's columns: derived from the entity (the first of its fields carries the "not
 * uploaded" chip) with the screen's overrides. */
export function gridColumns(
  entity: EntityShape,
  names: readonly string[],
  ctx: DisplayContext,
  overrides: ColumnOverrides = {},
): ListColumn[] {
  const { custom, render } = overrides;
  const own = names.filter((name) => !custom?.[name]);
  const derived = new Map(buildColumns(entity, own, ctx).map((column) => [column.field, column as ListColumn]));
  return names.map((name) => {
    const screenColumn = custom?.[name];
    if (screenColumn) return customColumn(name, screenColumn);
    const column = derived.get(name) as ListColumn;
    const draw = render?.[name];
    return draw ? { ...column, renderCell: renderWith(draw), draw } : column;
  });
}

/** Key of a row: the key field, or `pk` for the composite keys of RxDB documents. */
export function rowIdOf(entity: EntityShape, row: GridRow): string {
  if (entity.keyFields.length > 1) return String(row.pk ?? entity.keyFields.map((k) => row[k]).join('|'));
  return String(row[entity.keyFields[0] as string]);
}
