// /profiles: the clients (ADR-0028). Online the grid pages through the API (the server's
// organisation scope decides what is there), with this device's clients not uploaded yet on top;
// offline through the store. Search by name, registration number or phone; filters by
// territory, sex, population group, education level, organisation, registration date and the
// assigned worker ("Assigned to": me, or a worker of the organisation). The roles that assign
// clients select them (up to 500) and assign them to a worker, online; a field worker's device
// says what of the organisation is not on it, and what the caseload's bound left out
// (docs/product.md §6.5.1).
import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Alert, Box, Button, Checkbox, MenuItem, TextField, Typography, useMediaQuery, type Theme } from '@mui/material';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import { Page, useSessionUser } from '../../components';
import { useConnected } from '../../components/useConnected';
import { ListGrid, useDisplayContext, type CustomColumn, type DisplayContext, type GridRow } from '../../components/entity';
import { useDb } from '../../lib/data';
import { formatDate, notify } from '../../lib/ui';
import { can, type SessionUser } from '../../lib/session';
import { refreshCaseloadStatus, useCaseloadStatus } from '../offline';
import { AssignDialog, type AssignResult, type AssignTarget } from './AssignDialog';
import { MAX_ASSIGN, mayAssign, useWorkers, type Worker } from './caseloadApi';
import { CLIENT_LIST } from './list';
import { ADD_CLIENT_PATH, clientPath } from './paths';
import type { ClientDoc } from './saveClient';

/** A phone shows who the client is, by their full name, and the number staff quote. */
const PHONE_COLUMNS = ['fullName', 'prof_Reg_No'] as const;
const FULL_NAME = ['firstName', 'middleName', 'lastName'] as const;
const SELECT = 'select';
const ASSIGNED = 'assignedTo';
const WIDE_COLUMNS = [...CLIENT_LIST.columns, ASSIGNED];
const PHONE_LIST_COLUMNS = ['fullName', ...WIDE_COLUMNS];

/** The "Assigned to" filter's value for the signed-in user: follows whoever signs in. */
const ME = '@me';

const fullName = (row: GridRow) =>
  FULL_NAME.map((name) => row[name])
    .filter(Boolean)
    .join(' ');

/** The worker's name: oneself, a worker the server listed, else "a colleague". */
function workerName(id: unknown, user: SessionUser | null, names: ReadonlyMap<string, string>, ctx: DisplayContext): string {
  if (typeof id !== 'string' || !id) return '';
  if (user && id === user.userId) return user.fullName?.trim() || user.userName;
  return names.get(id) ?? ctx.t('clients.caseload.unknownWorker');
}

interface Selection {
  chosen: ReadonlyMap<string, AssignTarget>;
  toggle: (row: GridRow) => void;
}

/** Only records on the server can be assigned: one not uploaded yet waits. */
const assignable = (row: GridRow): boolean => !(row.syncState === 'pending' && row.syncOp === 'create');

const targetOf = (row: GridRow): AssignTarget => ({
  prof_Id: String(row.prof_Id),
  location: typeof row.location === 'number' ? row.location : null,
});

/** The screen's own columns: the full name (a phone adds the assigned worker under it), the
 * assigned worker by name, and, for those who assign, a checkbox per row. */
function useColumns(ctx: DisplayContext, names: ReadonlyMap<string, string>, user: SessionUser | null, selection: Selection | null) {
  return useMemo(() => {
    const assigned = (row: GridRow) => workerName(row[ASSIGNED], user, names, ctx);
    const columns: Record<string, CustomColumn> = {
      fullName: {
        header: ctx.t('clients.list.fullName'),
        text: fullName,
        render: (row) => {
          const worker = assigned(row);
          return (
            <Box component="span" sx={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
              <span>{fullName(row)}</span>
              {worker && (
                <Typography component="span" variant="caption" color="text.secondary" data-testid="row-assigned">
                  {ctx.t('clients.caseload.assignedLine', { name: worker })}
                </Typography>
              )}
            </Box>
          );
        },
      },
      [ASSIGNED]: { header: ctx.t('clients.caseload.assignedTo'), text: assigned, render: assigned },
    };
    if (selection) {
      const full = selection.chosen.size >= MAX_ASSIGN;
      columns[SELECT] = {
        header: ctx.t('clients.caseload.select'),
        width: 72,
        actions: true,
        render: (row) => {
          const id = String(row.prof_Id);
          const checked = selection.chosen.has(id);
          return (
            <Checkbox
              checked={checked}
              disabled={!assignable(row) || (!checked && full)}
              onChange={() => selection.toggle(row)}
              // A tick is not the row's click (which opens the client).
              onClick={(event) => event.stopPropagation()}
              slotProps={{ input: { 'aria-label': ctx.t('clients.caseload.selectClient', { name: fullName(row) }) } }}
              data-testid="row-select"
            />
          );
        },
      };
    }
    return columns;
  }, [ctx, names, user, selection]);
}

/** "Assigned to": anyone, me, or a worker of the organisation (the list's `assignedTo` filter). */
function AssignedFilter({
  value,
  onChange,
  workers,
  ctx,
}: {
  value: string;
  onChange: (value: string) => void;
  workers: readonly Worker[];
  ctx: DisplayContext;
}) {
  return (
    <TextField
      select
      size="small"
      label={ctx.t('clients.caseload.assignedTo')}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      sx={{ minWidth: 180, flex: { xs: '1 1 100%', sm: '0 1 auto' } }}
      slotProps={{ select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } } }}
      data-testid="filter-assignedTo"
    >
      <MenuItem value="">
        <em>{ctx.t('clients.caseload.assignedToAll')}</em>
      </MenuItem>
      <MenuItem value={ME}>{ctx.t('clients.caseload.assignedToMe')}</MenuItem>
      {workers.map((w) => (
        <MenuItem key={w.userId} value={w.userId}>
          {w.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** What a field worker's device says of its caseload: offline, how many of the organisation's
 * clients are not on it; always, how many of the caseload the bound left out. */
function CaseloadNotices({ online, ctx }: { online: boolean; ctx: DisplayContext }) {
  const status = useCaseloadStatus();
  if (!status?.caseload) return null;
  const { outside, outsideIsLowerBound, overflow, bound } = status.figures;
  const outsideText = outsideIsLowerBound ? 'clients.caseload.notOnDeviceMore' : 'clients.caseload.notOnDevice';
  return (
    <>
      {!online && outside > 0 && (
        <Alert severity="info" data-testid="caseload-outside">
          {ctx.t(outsideText, { count: outside, date: formatDate(status.at, ctx.lang) })}
        </Alert>
      )}
      {overflow > 0 && (
        <Alert severity="warning" data-testid="caseload-overflow">
          {ctx.t('clients.caseload.overflow', { count: overflow, bound })}
        </Alert>
      )}
    </>
  );
}

function useSelection(): Selection & { clear: () => void; addAll: (rows: readonly GridRow[]) => void } {
  const [chosen, setChosen] = useState<ReadonlyMap<string, AssignTarget>>(new Map());
  return useMemo(
    () => ({
      chosen,
      toggle: (row: GridRow) =>
        setChosen((was) => {
          const next = new Map(was);
          const id = String(row.prof_Id);
          if (next.has(id)) next.delete(id);
          else if (next.size < MAX_ASSIGN) next.set(id, targetOf(row));
          return next;
        }),
      // The page's clients join the selection, up to the bound, in the page's order.
      addAll: (rows: readonly GridRow[]) =>
        setChosen((was) => {
          const next = new Map(was);
          for (const row of rows.filter(assignable)) {
            if (next.size >= MAX_ASSIGN) break;
            next.set(String(row.prof_Id), targetOf(row));
          }
          return next;
        }),
      clear: () => setChosen(new Map()),
    }),
    [chosen],
  );
}

/** The roles that assign: the selection's count and actions above the list (online only). */
function AssignBar({
  ctx,
  online,
  selection,
  pageToAdd,
  onOpen,
}: {
  ctx: DisplayContext;
  online: boolean;
  selection: ReturnType<typeof useSelection>;
  pageToAdd: readonly GridRow[];
  onOpen: () => void;
}) {
  const count = selection.chosen.size;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }} data-testid="assign-bar">
      <Button
        variant="outlined"
        startIcon={<AssignmentIndIcon />}
        disabled={!online || count === 0}
        onClick={onOpen}
        data-testid="assign-open"
      >
        {count ? ctx.t('clients.caseload.assignSelected', { count }) : ctx.t('clients.caseload.assign')}
      </Button>
      <Button
        size="small"
        disabled={!online || pageToAdd.length === 0 || count >= MAX_ASSIGN}
        onClick={() => selection.addAll(pageToAdd)}
        data-testid="select-page"
      >
        {ctx.t('clients.caseload.selectPage', { count: pageToAdd.length })}
      </Button>
      {count > 0 && (
        <>
          <Typography variant="body2" data-testid="assign-count">
            {ctx.t('clients.caseload.selected', { count })}
          </Typography>
          <Button size="small" onClick={selection.clear}>
            {ctx.t('clients.caseload.clearSelection')}
          </Button>
        </>
      )}
      {!online && (
        <Typography variant="body2" color="text.secondary" data-testid="assign-offline">
          {ctx.t('clients.caseload.onlineOnly')}
        </Typography>
      )}
      {count >= MAX_ASSIGN && (
        <Alert severity="info" sx={{ flexBasis: '100%' }} data-testid="assign-full">
          {ctx.t('clients.caseload.selectionFull', { max: MAX_ASSIGN })}
        </Alert>
      )}
    </Box>
  );
}

export function ClientListPage() {
  const ctx = useDisplayContext();
  const db = useDb();
  const user = useSessionUser();
  const navigate = useNavigate();
  const online = useConnected();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const title = ctx.t('screens.profiles');
  const assigns = mayAssign(user);
  const workers = useWorkers(online);
  const names = useMemo(() => new Map(workers.map((w) => [w.userId, w.name])), [workers]);
  const selection = useSelection();
  const [shownRows, setShownRows] = useState<readonly GridRow[]>([]);
  const pageToAdd = shownRows.filter((row) => assignable(row) && !selection.chosen.has(String(row.prof_Id)));
  const columns = useColumns(ctx, names, user, assigns ? selection : null);
  const [assignedTo, setAssignedTo] = useState('');
  const [dialogOpen, setDialogOpen] = useState(false);
  const [refresh, setRefresh] = useState(0);

  // Online, the caseload's figures are asked with the list (and after each pull of clients).
  useEffect(() => {
    if (db && online) void refreshCaseloadStatus(db);
  }, [db, online]);

  const filterId = assignedTo === ME ? user?.userId : assignedTo;
  const fixedFilter = useMemo(() => (filterId ? { [ASSIGNED]: filterId } : undefined), [filterId]);

  const onAssigned = (result: AssignResult) => {
    setDialogOpen(false);
    selection.clear();
    setRefresh((n) => n + 1);
    notify.success(
      ctx.t('clients.caseload.doneTitle'),
      ctx.t('clients.caseload.done', { assigned: result.assigned, name: result.worker.name }),
    );
  };

  // product.md §2: 'Add Clients' only for a user with an organisation (location not 0).
  const add =
    can(user?.role, 'profiles.write') && user?.location ? (
      <Button component={RouterLink} to={ADD_CLIENT_PATH} variant="contained" startIcon={<PersonAddIcon />}>
        {ctx.t('menu.addClients')}
      </Button>
    ) : null;
  const wide = assigns ? [SELECT, ...WIDE_COLUMNS] : WIDE_COLUMNS;
  const phone = assigns ? [SELECT, ...PHONE_LIST_COLUMNS] : PHONE_LIST_COLUMNS;
  return (
    <Page title={title} actions={add}>
      <CaseloadNotices online={online} ctx={ctx} />
      {assigns && <AssignBar ctx={ctx} online={online} selection={selection} pageToAdd={pageToAdd} onOpen={() => setDialogOpen(true)} />}
      <ListGrid<ClientDoc>
        list={CLIENT_LIST}
        columns={narrow ? phone : wide}
        compactColumns={assigns ? [SELECT, ...PHONE_COLUMNS] : PHONE_COLUMNS}
        customColumns={columns}
        fixedFilter={fixedFilter}
        moreFilters={{
          node: <AssignedFilter value={assignedTo} onChange={setAssignedTo} workers={workers} ctx={ctx} />,
          active: assignedTo ? 1 : 0,
        }}
        refreshKey={refresh}
        dateRange
        onRowClick={(row) => void navigate(clientPath(row.prof_Id))}
        onRowsShown={assigns ? (setShownRows as (rows: readonly ClientDoc[]) => void) : undefined}
        exportName={title}
        ariaLabel={title}
      />
      {assigns && (
        <AssignDialog
          open={dialogOpen}
          clients={[...selection.chosen.values()]}
          workers={workers}
          onClose={() => setDialogOpen(false)}
          onAssigned={onAssigned}
        />
      )}
    </Page>
  );
}
