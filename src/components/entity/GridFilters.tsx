// The controls above an EntityGrid: the quick search (debounced into `q`) and one select per
// filter of the entity's list declaration (lookup lists in the user's language, enum names,
// yes/no), plus the CSV export button.
import { useId, useState, type ReactNode } from 'react';
import { Badge, Box, Button, CircularProgress, Drawer, InputAdornment, MenuItem, TextField, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import TuneIcon from '@mui/icons-material/Tune';
import SearchIcon from '@mui/icons-material/Search';
import type { EntityShape } from '../../../schemas/define';
import type { FilterValue } from '../../lib/data';
import { DAY_MAX, DAY_MIN } from '../../lib/ui';
import { DayField } from '../DayField';
import { enumOptions, fieldLabel, fieldOf, type DisplayContext } from './fields';
import { lookupOptions, type Option } from './lookups';
import { DATE_FROM, DATE_TO, type Filters } from './useGridQuery';

/** Filters a select can offer: lookups, enums and yes/no. Ids (a parent) and integers are
 * fixed by the screen (`fixedFilter`), never picked from a list. */
export function selectableFilters(entity: EntityShape, names?: readonly string[]): string[] {
  const wanted = names ?? entity.list?.filters ?? [];
  return wanted.filter((name) => {
    const kind = fieldOf(entity, name)?.kind;
    return kind === 'lookup' || kind === 'enum' || kind === 'boolean';
  });
}

export function filterOptions(entity: EntityShape, name: string, ctx: DisplayContext): Option<FilterValue>[] {
  const field = fieldOf(entity, name);
  if (field?.kind === 'lookup') return lookupOptions(ctx.lists, field.list, ctx.lang);
  if (field?.kind === 'enum') return enumOptions(entity, name, ctx.t);
  if (field?.kind === 'boolean') {
    return [
      { value: true, label: ctx.t('entityGrid.yes') },
      { value: false, label: ctx.t('entityGrid.no') },
    ];
  }
  return [];
}

// Select values are strings; JSON keeps 1, '1' and true apart.
const encode = (value: FilterValue): string => JSON.stringify(value);
const decode = (text: string): FilterValue => JSON.parse(text) as FilterValue;

interface FilterSelectProps {
  entity: EntityShape;
  name: string;
  value: FilterValue | undefined;
  ctx: DisplayContext;
  onChange: (value: FilterValue | undefined) => void;
}

function FilterSelect({ entity, name, value, ctx, onChange }: FilterSelectProps) {
  const label = fieldLabel(entity, name, ctx.t);
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value === undefined ? '' : encode(value)}
      onChange={(event) => onChange(event.target.value === '' ? undefined : decode(event.target.value))}
      sx={{ minWidth: 160, flex: { xs: '1 1 100%', sm: '0 1 auto' } }}
      slotProps={{ select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } } }}
      data-testid={`filter-${name}`}
    >
      <MenuItem value="">
        <em>{ctx.t('entityGrid.all')}</em>
      </MenuItem>
      {filterOptions(entity, name, ctx).map((option) => (
        <MenuItem key={encode(option.value)} value={encode(option.value)}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

export interface GridFiltersProps {
  entity: EntityShape;
  ctx: DisplayContext;
  search: string;
  onSearch: (text: string) => void;
  filterNames: readonly string[];
  filters: Filters;
  onFilters: (filters: Filters) => void;
  exporting: boolean;
  onExport?: () => void;
  /** Offer a date range on the entity's date field (createdAt unless it names another). */
  dateRange?: boolean;
  /** A phone: the search and a "Filters (n)" button above the results; the filters, dates and
   * the export in a sheet from the bottom (docs/adr/0048-first-day-screens.md "Phone lists: results first"). */
  narrow?: boolean;
  /** The screen's own filters (a referral's date range), drawn with the others. */
  more?: MoreFilters;
}

export interface MoreFilters {
  node: ReactNode;
  /** How many of them are set (counted on the phone's "Filters (n)"). */
  active: number;
}

function DateBound({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: FilterValue | undefined;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <DayField
      size="small"
      label={label}
      value={typeof value === 'string' ? value : ''}
      onChange={onChange}
      testId={testId}
      sx={{ flex: { xs: '1 1 40%', sm: '0 1 190px' } }}
      min={DAY_MIN}
      max={DAY_MAX}
    />
  );
}

function searchPlaceholder(entity: EntityShape, ctx: DisplayContext): string {
  const fields = (entity.list?.search ?? []).slice(0, 3).map((name) => fieldLabel(entity, name, ctx.t).toLowerCase());
  return fields.length ? ctx.t('entityGrid.searchIn', { fields: fields.join(', ') }) : '';
}

export function GridFilters(props: GridFiltersProps) {
  const { entity, ctx, search, onSearch, filters, onFilters, exporting, onExport, dateRange } = props;
  const dateLabel = fieldLabel(entity, entity.list?.dateField ?? 'createdAt', ctx.t);
  const canSearch = (entity.list?.search.length ?? 0) > 0;
  const active = Object.keys(filters).length > 0 || search !== '';
  const setFilter = (name: string, value: FilterValue | undefined) => {
    const next: Record<string, FilterValue> = { ...filters };
    if (value === undefined || value === '') delete next[name];
    else next[name] = value;
    onFilters(next);
  };
  const searchField = canSearch && (
    <TextField
      type="search"
      size="small"
      label={ctx.t('entityGrid.search')}
      placeholder={searchPlaceholder(entity, ctx)}
      value={search}
      onChange={(event) => onSearch(event.target.value)}
      sx={{ flex: { xs: '1 1 100%', sm: '1 1 240px' }, maxWidth: { sm: 360 } }}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
        htmlInput: { 'data-testid': 'grid-search' },
      }}
    />
  );
  const selects = props.filterNames.map((name) => (
    <FilterSelect key={name} entity={entity} name={name} value={filters[name]} ctx={ctx} onChange={(value) => setFilter(name, value)} />
  ));
  const dates = dateRange && (
    <>
      <DateBound
        label={ctx.t('entityGrid.dateFrom', { field: dateLabel })}
        value={filters[DATE_FROM]}
        onChange={(v) => setFilter(DATE_FROM, v)}
        testId="filter-dateFrom"
      />
      <DateBound
        label={ctx.t('entityGrid.dateTo', { field: dateLabel })}
        value={filters[DATE_TO]}
        onChange={(v) => setFilter(DATE_TO, v)}
        testId="filter-dateTo"
      />
    </>
  );
  const clear = active && (
    <Button
      size="small"
      startIcon={<FilterAltOffIcon />}
      onClick={() => {
        onSearch('');
        onFilters({});
      }}
    >
      {ctx.t('entityGrid.clearFilters')}
    </Button>
  );
  const exportButton = onExport && (
    <Button
      size="small"
      variant="outlined"
      sx={{ ml: { sm: 'auto' } }}
      startIcon={exporting ? <CircularProgress size={16} /> : <DownloadIcon />}
      disabled={exporting}
      onClick={onExport}
      data-testid="grid-export"
    >
      {ctx.t(exporting ? 'entityGrid.exporting' : 'entityGrid.exportCsv')}
    </Button>
  );
  if (props.narrow)
    return (
      <PhoneFilters ctx={ctx} count={Object.keys(filters).length + (props.more?.active ?? 0)} search={searchField}>
        {props.more?.node}
        {selects}
        {dates}
        {clear}
        {exportButton}
      </PhoneFilters>
    );
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }} role="search">
      {searchField}
      {props.more?.node}
      {selects}
      {dates}
      {clear}
      {exportButton}
    </Box>
  );
}

/** A phone's list controls: the search and the button that opens the sheet of the rest. */
function PhoneFilters({ ctx, count, search, children }: { ctx: DisplayContext; count: number; search: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const label = ctx.t('entityGrid.filtersButton', { count });
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }} role="search">
      <Box sx={{ flex: '1 1 auto', minWidth: 0, display: 'flex' }}>{search}</Box>
      <Button
        variant={count ? 'contained' : 'outlined'}
        startIcon={
          <Badge color="secondary" variant="dot" invisible={count === 0}>
            <TuneIcon />
          </Badge>
        }
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        aria-expanded={open}
        sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
        data-testid="filters-open"
      >
        {label}
      </Button>
      <Drawer
        anchor="bottom"
        open={open}
        onClose={() => setOpen(false)}
        slotProps={{
          paper: {
            role: 'dialog',
            'aria-labelledby': titleId,
            sx: { borderTopLeftRadius: 12, borderTopRightRadius: 12, maxHeight: '85vh' },
          },
        }}
      >
        <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="filters-sheet">
          <Typography id={titleId} component="h2" variant="h6">
            {ctx.t('entityGrid.filtersTitle')}
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}>{children}</Box>
          <Button variant="contained" onClick={() => setOpen(false)} sx={{ alignSelf: 'flex-end' }}>
            {ctx.t('entityGrid.showResults')}
          </Button>
        </Box>
      </Drawer>
    </Box>
  );
}
