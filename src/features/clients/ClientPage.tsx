// /profiles/:profId: one client, every section read-only with its Edit button, the photo and
// documents (open, download), who registered the client and when, whether the record still
// waits on this device, and the client's referrals (ClientReferrals, ADR-0029).
import { useEffect, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import { Alert, Box, Button, Card, CardContent, Chip, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import OfflinePinIcon from '@mui/icons-material/OfflinePin';
import type { BspData } from '../../../schemas/entities/profiles';
import { recordTitle } from '../../../schemas/index';
import { Page, useSessionUser } from '../../components';
import { NotUploadedChip } from '../../components/AmberChip';
import { ClientGate } from './ClientGate';
import { useConnected } from '../../components/useConnected';
import { lookupLabel, useDisplayContext, type DisplayContext } from '../../components/entity';
import { api } from '../../lib/http';
import { formatDate, notify } from '../../lib/ui';
import { can, mayChange, type SessionUser } from '../../lib/session';
import { userNames } from '../../lib/data';
import { ClientDataActions, creatorName, HistorySection } from '../audit';
import { ClientReferrals } from '../referrals';
import { resyncReplication, useCaseloadStatus } from '../offline';
import { AssignDialog, type AssignResult } from './AssignDialog';
import { caseloadError, fetchPins, MAX_PINS, mayAssign, setPinned, useWorkers, type CaseloadError } from './caseloadApi';
import { ClientSections, emptySections, type ClientSectionsProps, type EditAction } from './ClientSections';
import { clientPath, CLIENTS_PATH, editClientPath } from './paths';
import type { ClientDoc } from './saveClient';
import { profile, STEPS, SUB_PARTS, type StepId } from './steps';
import { storedRecord, useClient, useClientFiles, type SubRecordStates } from './useClient';

/** Who registered the client: this user, a name the user may read (roles 1 and 7: the users'
 * list; anyone who may read the client's history: its creation entry), or, offline or when
 * neither says, a colleague of the organisation (docs/adr/0048-first-day-screens.md "Who registered a client"). */
function useRegisteredBy(doc: ClientDoc, user: SessionUser | null, ctx: DisplayContext, online: boolean): string {
  const createdBy = typeof doc.createdBy === 'string' ? doc.createdBy : '';
  const self = user && (!createdBy || createdBy === user.userId);
  const onServer = !(doc.syncState === 'pending' && doc.syncOp === 'create');
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const [creator, setCreator] = useState<string | null>(null);
  useEffect(() => {
    if (self || !online) return undefined;
    let current = true;
    if (can(user?.role, 'users.manage')) void userNames(api).then((map) => current && setNames(map));
    else if (onServer) void creatorName('profile', doc.prof_Id).then((name) => current && setCreator(name));
    return () => {
      current = false;
    };
  }, [self, user?.role, online, onServer, doc.prof_Id]);
  if (self) return user.fullName?.trim() || user.userName;
  return names.get(createdBy) ?? creator ?? ctx.t('clients.page.colleague');
}

function Summary({ doc, ctx }: { doc: ClientDoc; ctx: DisplayContext }) {
  const user = useSessionUser();
  const by = useRegisteredBy(doc, user, ctx, useConnected());
  const waiting = doc.syncState === 'pending';
  const when = typeof doc.createdAt === 'string' ? formatDate(doc.createdAt, ctx.lang) : null;
  const organisation = doc.location ? lookupLabel(ctx.lists, 'organisation', doc.location, ctx.lang) : '';
  return (
    <Card variant="outlined" data-testid="client-summary">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <Typography variant="body2" color="text.secondary">
            {ctx.t('field.profile.prof_Reg_No')}
          </Typography>
          <Chip
            label={doc.prof_Reg_No}
            color="primary"
            data-testid="client-reg-no"
            sx={{ fontFamily: 'monospace', fontSize: '1rem', fontWeight: 600 }}
          />
          {waiting && <NotUploadedChip />}
        </Box>
        <Typography variant="body2" data-testid="client-registered">
          {when ? ctx.t('clients.page.registered', { date: when, name: by }) : ctx.t('clients.page.registeredHere', { name: by })}
          {organisation ? ` — ${organisation}` : ''}
        </Typography>
        {waiting && (
          <Alert severity="info" data-testid="client-waiting">
            {ctx.t(doc.syncError ? 'clients.page.uploadFailed' : 'clients.page.waiting', { message: String(doc.syncError ?? '') })}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}

/** A client's data handed over or erased (ADR-0036): for the roles that hold
 * clients.handover, online, once the client is on the server. */
function ClientData({ doc, ctx }: { doc: ClientDoc; ctx: DisplayContext }) {
  const navigate = useNavigate();
  return (
    <Card variant="outlined" component="section" aria-labelledby="client-data-title" data-testid="client-data">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Typography variant="h6" component="h2" id="client-data-title">
          {ctx.t('audit.clientData.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {ctx.t('audit.clientData.intro')}
        </Typography>
        <ClientDataActions
          profId={doc.prof_Id}
          name={recordTitle(profile, doc, 'short')}
          regNo={doc.prof_Reg_No}
          onErased={() => void navigate(CLIENTS_PATH, { replace: true })}
        />
      </CardContent>
    </Card>
  );
}

/** The sections that hold nothing yet, folded into one card: each named, with its way to fill it. */
function ToComplete({ empty, ctx, action }: { empty: readonly StepId[]; ctx: DisplayContext; action?: EditAction }) {
  if (empty.length === 0) return null;
  return (
    <Card variant="outlined" component="section" aria-labelledby="client-to-complete" data-testid="client-to-complete">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Typography id="client-to-complete" component="h2" variant="h6">
          {ctx.t('clients.page.toComplete', { count: empty.length })}
        </Typography>
        <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          {empty.map((step) => {
            const title = ctx.t(`clients.steps.${step}`);
            return (
              <Box
                component="li"
                key={step}
                sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
                data-testid={`client-empty-${step}`}
              >
                <Typography sx={{ flexGrow: 1 }}>{title}</Typography>
                {action && 'href' in action && (
                  <Button
                    component={RouterLink}
                    to={action.href(step)}
                    size="small"
                    startIcon={<AddIcon />}
                    aria-label={ctx.t('clients.page.fillSection', { section: title })}
                  >
                    {ctx.t('clients.page.fill')}
                  </Button>
                )}
              </Box>
            );
          })}
        </Box>
      </CardContent>
    </Card>
  );
}

/** Whether this client is kept on the user's devices (their pins), asked online. */
function usePinned(profId: string, enabled: boolean): [boolean | null, (pinned: boolean) => void] {
  const [pins, setPins] = useState<{ profId: string; pinned: boolean } | null>(null);
  useEffect(() => {
    if (!enabled) return undefined;
    let current = true;
    fetchPins().then(
      (list) => current && setPins({ profId, pinned: list.includes(profId) }),
      (error: unknown) => console.warn('Pins not read:', error),
    );
    return () => {
      current = false;
    };
  }, [profId, enabled]);
  const known = enabled && pins?.profId === profId ? pins.pinned : null;
  return [known, (pinned) => setPins({ profId, pinned })];
}

/** Who serves the client, and the caseload's actions (docs/product.md §6.5.1): "Assign to…"
 * for the roles that assign; "Keep on this device" for a user whose device mirrors a caseload
 * (a field worker: on any other device a pin changes nothing, docs/adr/0017-caseload.md "The
 * caseload"). Both online only: offline, each says why it is off. */
function CaseloadCard({ doc, ctx, online }: { doc: ClientDoc; ctx: DisplayContext; online: boolean }) {
  const user = useSessionUser();
  const status = useCaseloadStatus();
  const assigns = mayAssign(user);
  const keeps = status?.caseload === true;
  const workers = useWorkers(online);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<CaseloadError | null>(null);
  const [assignedNow, setAssignedNow] = useState<string | null>(null);
  const [pinned, setPinnedState] = usePinned(doc.prof_Id, keeps && online);
  const assignedTo = assignedNow ?? (typeof doc.assignedTo === 'string' ? doc.assignedTo : '');
  const name = recordTitle(profile, doc, 'short');
  const workerName =
    assignedTo && user && assignedTo === user.userId
      ? user.fullName?.trim() || user.userName
      : (workers.find((w) => w.userId === assignedTo)?.name ?? (assignedTo ? ctx.t('clients.caseload.unknownWorker') : ''));

  const onAssigned = (result: AssignResult) => {
    setOpen(false);
    setAssignedNow(result.worker.userId);
    notify.success(
      ctx.t('clients.caseload.doneTitle'),
      ctx.t('clients.caseload.done', { assigned: result.assigned, name: result.worker.name }),
    );
  };
  const togglePin = async () => {
    if (pinned === null) return;
    setBusy(true);
    setRefusal(null);
    try {
      await setPinned(doc.prof_Id, !pinned);
      setPinnedState(!pinned);
      // The device pulls its clients now rather than at the next change event.
      resyncReplication();
      notify.success(
        ctx.t(pinned ? 'clients.caseload.unkeptTitle' : 'clients.caseload.keptTitle'),
        ctx.t(pinned ? 'clients.caseload.unkept' : 'clients.caseload.kept', { name }),
      );
    } catch (error) {
      setRefusal(caseloadError(error));
    } finally {
      setBusy(false);
    }
  };
  if (!assigns && !keeps && !workerName) return null;
  return (
    <Card variant="outlined" component="section" aria-label={ctx.t('clients.caseload.assignedTo')} data-testid="client-caseload">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        {workerName && (
          <Typography variant="body2" data-testid="client-assigned">
            {ctx.t('clients.caseload.assignedLine', { name: workerName })}
          </Typography>
        )}
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          {assigns && (
            <Button
              variant="outlined"
              startIcon={<AssignmentIndIcon />}
              disabled={!online}
              onClick={() => setOpen(true)}
              data-testid="client-assign"
            >
              {ctx.t('clients.caseload.assign')}
            </Button>
          )}
          {keeps && (
            <Button
              variant={pinned ? 'outlined' : 'contained'}
              startIcon={<OfflinePinIcon />}
              disabled={!online || busy || pinned === null}
              onClick={() => void togglePin()}
              aria-pressed={pinned === true}
              data-testid="client-keep"
            >
              {ctx.t(pinned ? 'clients.caseload.unkeep' : 'clients.caseload.keep')}
            </Button>
          )}
        </Box>
        {keeps && online && (
          <Typography variant="body2" color="text.secondary">
            {ctx.t('clients.caseload.keepHelp', { max: MAX_PINS })}
          </Typography>
        )}
        {!online && assigns && (
          <Typography variant="body2" color="text.secondary" data-testid="client-assign-offline">
            {ctx.t('clients.caseload.onlineOnly')}
          </Typography>
        )}
        {!online && keeps && (
          <Typography variant="body2" color="text.secondary" data-testid="client-keep-offline">
            {ctx.t('clients.caseload.keepOnlineOnly')}
          </Typography>
        )}
        {refusal && (
          <Alert severity="error" data-testid="client-keep-error">
            {ctx.t(refusal.id, refusal.values)}
          </Alert>
        )}
      </CardContent>
      {assigns && (
        <AssignDialog
          open={open}
          clients={[{ prof_Id: doc.prof_Id, location: typeof doc.location === 'number' ? doc.location : null }]}
          workers={workers}
          onClose={() => setOpen(false)}
          onAssigned={onAssigned}
        />
      )}
    </Card>
  );
}

function ClientView({ doc, records }: { doc: ClientDoc; records: SubRecordStates }) {
  const ctx = useDisplayContext();
  const user = useSessionUser();
  const location = useLocation();
  const { files } = useClientFiles(doc.prof_Id);
  const canWrite = can(user?.role, 'profiles.write') && mayChange(user, profile, doc);
  const connected = useConnected();
  const onServer = !(doc.syncState === 'pending' && doc.syncOp === 'create');
  const justSaved = (location.state as { savedRegNo?: string } | null)?.savedRegNo;
  // Who the client is first, then the referrals and what is left to fill in, then the sections
  // that hold something; the empty ones are one line each (docs/adr/0048-first-day-screens.md "A client's page").
  const sections: ClientSectionsProps = {
    profileValues: doc,
    bsp: (doc.BspData as BspData | undefined) ?? { appr: [], orgHelp: [] },
    records: Object.fromEntries(SUB_PARTS.map((p) => [p, storedRecord(records[p])])),
    existingFiles: files,
    ctx,
    action: canWrite ? { href: (step) => editClientPath(doc.prof_Id, step) } : undefined,
    answeredOnly: true,
  };
  const empty = emptySections(sections);
  const filled = STEPS.filter((step) => step !== 'identity' && step !== 'review' && !empty.includes(step));
  const actions = (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Button component={RouterLink} to={CLIENTS_PATH} startIcon={<ArrowBackIcon />}>
        {ctx.t('clients.page.back')}
      </Button>
      {canWrite && (
        <Button component={RouterLink} to={editClientPath(doc.prof_Id)} variant="contained" startIcon={<EditIcon />}>
          {ctx.t('clients.page.edit')}
        </Button>
      )}
    </Box>
  );
  return (
    <Page title={recordTitle(profile, doc, 'short')} actions={actions}>
      {justSaved && (
        <Alert severity="success" data-testid="client-saved">
          {ctx.t('clients.saved', { regNo: justSaved })}
        </Alert>
      )}
      <Summary doc={doc} ctx={ctx} />
      {onServer && <CaseloadCard doc={doc} ctx={ctx} online={connected} />}
      <ClientSections {...sections} only={['identity']} />
      {/* The client's referrals (ADR-0029): made online only; the card says so offline. */}
      {doc.syncState === 'pending' && doc.syncOp === 'create' ? (
        <Alert severity="info" data-testid="client-referrals-later">
          {ctx.t('clients.page.referralsAfterUpload')}
        </Alert>
      ) : (
        <ClientReferrals profId={doc.prof_Id} />
      )}
      <ToComplete empty={empty} ctx={ctx} action={sections.action} />
      <ClientSections {...sections} only={filled} />
      {onServer && connected && can(user?.role, 'clients.handover') && <ClientData doc={doc} ctx={ctx} />}
      {/* Who changed what (ADR-0036): the client, its sub-records, photos and referrals. */}
      {onServer && <HistorySection entity="profile" recordId={doc.prof_Id} />}
    </Page>
  );
}

export function ClientPage() {
  const { profId = '' } = useParams();
  const { client, records } = useClient(profId);
  return <ClientGate client={client}>{(doc) => <ClientView key={clientPath(doc.prof_Id)} doc={doc} records={records} />}</ClientGate>;
}
