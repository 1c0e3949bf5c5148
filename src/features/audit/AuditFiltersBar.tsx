// The audit screen's filters (ADR-0036): user, organisation (role 1 only: role 7 sees its
// own), kind of record, action and a date range, laid out as the lists' filters (GridFilters):
// one row on a wide screen, stacked on a phone.
import { Box, Button, MenuItem, TextField, Typography } from '@mui/material';
import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import { lookupOptions, type DisplayContext } from '../../components/entity';
import { DayField } from '../../components/DayField';
import { DAY_MAX } from '../../lib/ui';
import { actionLabel, entityOptions } from './describe';
import { AUDIT_ACTIONS, type AuditFilters } from './types';

interface Choice {
  value: string;
  label: string;
}

function FilterSelect({
  label,
  value,
  choices,
  onChange,
  testId,
  ctx,
}: {
  label: string;
  value: string;
  choices: readonly Choice[];
  onChange: (value: string) => void;
  testId: string;
  ctx: DisplayContext;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      sx={{ minWidth: 160, flex: { xs: '1 1 100%', sm: '0 1 auto' } }}
      slotProps={{ select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } } }}
      data-testid={testId}
    >
      <MenuItem value="">
        <em>{ctx.t('entityGrid.all')}</em>
      </MenuItem>
      {choices.map((choice) => (
        <MenuItem key={choice.value} value={choice.value}>
          {choice.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The audit log starts with the app: no entry is older than 2000. */
const AUDIT_MIN = '2000-01-01';

function DateBound({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <DayField
      size="small"
      label={label}
      value={value}
      onChange={onChange}
      testId={testId}
      sx={{ flex: { xs: '1 1 40%', sm: '0 1 190px' } }}
      min={AUDIT_MIN}
      max={DAY_MAX}
    />
  );
}

export interface AuditFiltersBarProps {
  filters: AuditFilters;
  onChange: (filters: AuditFilters) => void;
  ctx: DisplayContext;
  /** The users the caller may list (id → name), for the user filter. */
  users: ReadonlyMap<string, string>;
  /** Role 1: any organisation; role 7 is held to its own by the server. */
  anyOrganisation: boolean;
  /** Role 7's own organisation, named where role 1 has the organisation filter. */
  ownOrganisation?: string;
}

export function AuditFiltersBar({ filters, onChange, ctx, users, anyOrganisation, ownOrganisation }: AuditFiltersBarProps) {
  const set = <K extends keyof AuditFilters>(name: K, value: AuditFilters[K] | '') => {
    const next: AuditFilters = { ...filters };
    if (value === '' || value === undefined) delete next[name];
    else next[name] = value;
    onChange(next);
  };
  const userChoices = [...users].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label, ctx.lang));
  // A user picked from a link or a past filter who is no longer listed still shows.
  if (filters.userId && !users.has(filters.userId)) userChoices.push({ value: filters.userId, label: filters.userId });
  const organisations = lookupOptions(ctx.lists, 'organisation', ctx.lang).map((o) => ({ value: String(o.value), label: o.label }));
  const actions = AUDIT_ACTIONS.map((action) => ({ value: action, label: actionLabel(action, ctx.t) })).sort((a, b) =>
    a.label.localeCompare(b.label, ctx.lang),
  );
  const active = Object.keys(filters).length > 0;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }} role="search" aria-label={ctx.t('audit.filters')}>
      <FilterSelect
        label={ctx.t('audit.column.user')}
        value={filters.userId ?? ''}
        choices={userChoices}
        onChange={(v) => set('userId', v)}
        testId="audit-filter-user"
        ctx={ctx}
      />
      {!anyOrganisation && ownOrganisation && (
        <Typography
          variant="body2"
          color="text.secondary"
          data-testid="audit-own-organisation"
          sx={{ flex: { xs: '1 1 100%', sm: '0 1 auto' } }}
        >
          {ctx.t('audit.ownOrganisation', { name: ownOrganisation })}
        </Typography>
      )}
      {anyOrganisation && (
        <FilterSelect
          label={ctx.t('audit.column.organisation')}
          value={filters.location === undefined ? '' : String(filters.location)}
          choices={organisations}
          onChange={(v) => set('location', v === '' ? '' : Number(v))}
          testId="audit-filter-location"
          ctx={ctx}
        />
      )}
      <FilterSelect
        label={ctx.t('audit.column.entity')}
        value={filters.entity ?? ''}
        choices={entityOptions(ctx.t, ctx.lang)}
        onChange={(v) => set('entity', v)}
        testId="audit-filter-entity"
        ctx={ctx}
      />
      <FilterSelect
        label={ctx.t('audit.column.action')}
        value={filters.action ?? ''}
        choices={actions}
        onChange={(v) => set('action', v)}
        testId="audit-filter-action"
        ctx={ctx}
      />
      <DateBound
        label={ctx.t('audit.dateFrom')}
        value={filters.dateFrom ?? ''}
        onChange={(v) => set('dateFrom', v)}
        testId="audit-filter-dateFrom"
      />
      <DateBound
        label={ctx.t('audit.dateTo')}
        value={filters.dateTo ?? ''}
        onChange={(v) => set('dateTo', v)}
        testId="audit-filter-dateTo"
      />
      {active && (
        <Button size="small" startIcon={<FilterAltOffIcon />} onClick={() => onChange({})} data-testid="audit-clear-filters">
          {ctx.t('entityGrid.clearFilters')}
        </Button>
      )}
    </Box>
  );
}
