// /audit (ADR-0036): the audit log, for role 1 (everything) and role 7 (its own
// organisation, which the server holds it to). Server paging, filters, the CSV of the filtered
// entries from the server (the export is itself audited) and live updates. Wide screens draw
// the data grid, phones the phone list (ADR-0024), with the same columns as the other lists.
import { Suspense, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Alert, Box, Button, CircularProgress, LinearProgress, useMediaQuery, useTheme } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { Page, useSessionUser } from '../../components';
import { lookupLabel, messageOf, PAGE_SIZE_MENUS, useDisplayContext, type GridRow } from '../../components/entity';
import { gridView } from '../../components/entity/gridViewModule';
import PhoneList from '../../components/entity/PhoneList';
import { usePage } from '../../components/entity/useGridQuery';
import type { Paging } from '../../components/entity/paging';
import { type ListQuery, userNames } from '../../lib/data';
import { api } from '../../lib/http';
import { can } from '../../lib/session';
import { useServerChanges } from '../../lib/ui';
import { downloadAuditCsv, fetchAudit } from './auditApi';
import { AuditFiltersBar } from './AuditFiltersBar';
import { auditColumns, PHONE_COLUMNS, WIDE_COLUMNS } from './columns';
import { AUDIT_CLIENTS_PATH } from './paths';
import type { AuditEntry, AuditFilters } from './types';

const SIZES = PAGE_SIZE_MENUS.list;
/** As the live lists (EntityGrid): at most one reload per this gap while entries keep coming. */
const LIVE_RELOAD_GAP_MS = 300;

function load(query: ListQuery) {
  return fetchAudit((query.filter ?? {}) as AuditFilters, query.page ?? 1, query.pageSize ?? SIZES[0]);
}

function useUserNames(): ReadonlyMap<string, string> {
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  useEffect(() => {
    let current = true;
    void userNames(api).then((map) => current && setNames(map));
    return () => {
      current = false;
    };
  }, []);
  return names;
}

function useCsv(filters: AuditFilters) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await downloadAuditCsv(filters);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, dismiss: () => setError(null) };
}

export function AuditPage() {
  const ctx = useDisplayContext();
  const user = useSessionUser();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const users = useUserNames();
  const [filters, setFilters] = useState<AuditFilters>({});
  const [model, setModel] = useState({ page: 0, pageSize: SIZES[0] as number });
  const query = useMemo<ListQuery>(() => ({ page: model.page + 1, pageSize: model.pageSize, filter: { ...filters } }), [model, filters]);
  const page = usePage<AuditEntry>(load, query, null);
  useServerChanges(['audit_log'], page.reload, true, LIVE_RELOAD_GAP_MS, true);
  const csv = useCsv(filters);
  const columns = useMemo(() => auditColumns(ctx, user?.role), [ctx, user?.role]);
  const shownColumns: readonly string[] = narrow ? PHONE_COLUMNS : WIDE_COLUMNS;
  const auto = Object.fromEntries(columns.map((column) => [column.field, shownColumns.includes(column.field)]));
  // What the user hid or showed in the grid's column menu, over the automatic choice.
  const [chosen, setChosen] = useState<Record<string, boolean>>({});
  const visibility = { ...auto, ...chosen };
  const paging: Paging = { total: page.total, totalIsLowerBound: page.totalIsLowerBound, model, sizes: SIZES, onChange: setModel };
  const title = ctx.t('screens.audit');
  const ListView = narrow ? PhoneList : gridView.Component;

  const actions = (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      {can(user?.role, 'clients.handover') && (
        <Button component={RouterLink} to={AUDIT_CLIENTS_PATH} startIcon={<ManageAccountsIcon />} data-testid="audit-clients-link">
          {ctx.t('screens.auditClients')}
        </Button>
      )}
      <Button
        variant="outlined"
        startIcon={csv.busy ? <CircularProgress size={16} aria-hidden /> : <DownloadIcon />}
        disabled={csv.busy}
        onClick={() => void csv.run()}
        data-testid="audit-csv"
      >
        {ctx.t('audit.csv')}
      </Button>
    </Box>
  );

  return (
    <Page title={title} actions={actions}>
      <AuditFiltersBar
        filters={filters}
        onChange={(next) => {
          setFilters(next);
          setModel((was) => ({ ...was, page: 0 }));
        }}
        ctx={ctx}
        users={users}
        anyOrganisation={can(user?.role, 'users.createAny')}
        ownOrganisation={user?.location ? lookupLabel(ctx.lists, 'organisation', user.location, ctx.lang) : undefined}
      />
      {csv.error !== null && (
        <Alert severity="error" onClose={csv.dismiss} data-testid="audit-csv-failed">
          {ctx.t('audit.csvFailed', { message: csv.error })}
        </Alert>
      )}
      {page.error !== null && (
        <Alert
          severity="error"
          data-testid="audit-failed"
          action={
            <Button color="inherit" size="small" onClick={page.retry}>
              {ctx.t('entityGrid.retry')}
            </Button>
          }
        >
          {ctx.t('entityGrid.loadFailed', { message: messageOf(page.error) })}
        </Alert>
      )}
      <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 220, width: '100%', minWidth: 0 }} data-testid="audit-grid">
        <Suspense fallback={<LinearProgress aria-label={ctx.t('common.loading')} />}>
          <ListView
            ariaLabel={title}
            rows={page.rows as unknown as GridRow[]}
            columns={columns}
            rowId={(row) => String(row.id)}
            loading={page.loading}
            paging={paging}
            sortModel={[]}
            onSortModelChange={() => undefined}
            visibility={visibility}
            onVisibilityChange={(next) => setChosen(Object.fromEntries(Object.entries(next).filter(([field, on]) => on !== auto[field])))}
            narrow={narrow}
            lang={ctx.lang}
            emptyText={ctx.t('audit.empty')}
            actionColumn={() => false}
          />
        </Suspense>
      </Box>
    </Page>
  );
}
