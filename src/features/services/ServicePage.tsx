// `/serviceproviders/services/:id`: a service with its provider, verification status (and the
// verifier's comment when rejected), images, apprenticeships and vocational trainings; Edit and
// Delete (reason and password, product.md §5) for roles that may write.
import { useState, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Alert, AlertTitle, Box, Button, Card, CardContent, Chip, Grid, Link, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import { recordTitle, service, SERVICE_STATUS, serviceProvider } from '../../../schemas/index';
import { HistorySection } from '../audit';
import { ConfirmDialog, Page, ServiceStatusChip, useSessionUser, WARNING_OUTLINED_SX } from '../../components';
import { DeleteDialog } from '../../components/DeleteDialog';
import { displayValue, fieldLabel, useDisplayContext } from '../../components/entity';
import { useRecordImages } from '../../components/images';
import { type Doc, useDataLayer, useRecord } from '../../lib/data';
import { emitPendingStatsChanged } from '../../lib/util';
import { formatDate, notify } from '../../lib/ui';
import { mayChange, useSay } from '../../lib/session';
import { reportFailure, savesOnline } from './feedback';
import { servicePaths } from './paths';
import { ServiceGate } from './ServiceGate';
import { ServiceImages } from './ServiceImages';
import { TrainingSection } from './TrainingSection';

type Service = Doc<typeof service>;

function Detail({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <Grid size={{ xs: 12, sm: wide ? 12 : 6 }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {children || '—'}
      </Typography>
    </Grid>
  );
}

function ProviderLink({ spId }: { spId: string }) {
  const say = useSay();
  const provider = useRecord(serviceProvider, spId);
  if (provider.status === 'loading') return <>{say('common.loading')}</>;
  const name = provider.status === 'ready' ? recordTitle(serviceProvider, provider.doc) : say('services.page.providerUnknown');
  return (
    <Link component={RouterLink} to={servicePaths.provider(spId)} data-testid="provider-link">
      {name}
    </Link>
  );
}

function Details({ doc }: { doc: Service }) {
  const ctx = useDisplayContext();
  const label = (name: string) => fieldLabel(service, name, ctx.t);
  const show = (name: string) => displayValue(service, name, (doc as Record<string, unknown>)[name], ctx);
  return (
    <Card variant="outlined">
      <CardContent>
        <Grid container component="dl" spacing={2} sx={{ m: 0 }}>
          <Detail label={label('sp_Id')}>
            <ProviderLink spId={doc.sp_Id} />
          </Detail>
          <Detail label={label('territory')}>{show('territory')}</Detail>
          <Detail label={label('category')}>{show('category')}</Detail>
          <Detail label={label('serviceType')}>{show('serviceType')}</Detail>
          <Detail label={label('description')} wide>
            {show('description')}
          </Detail>
          <Detail label={label('eligibility')} wide>
            {show('eligibility')}
          </Detail>
          <Detail label={label('cost')}>{show('cost')}</Detail>
          <Detail label={label('hours')}>{show('hours')}</Detail>
          <Detail label={label('createdAt')}>{formatDate(doc.createdAt, ctx.lang)}</Detail>
          {doc.status !== SERVICE_STATUS.pending && doc.verifiedAt && (
            <Detail label={label('verifiedAt')}>{formatDate(doc.verifiedAt, ctx.lang)}</Detail>
          )}
        </Grid>
      </CardContent>
    </Card>
  );
}

function StatusLine({ doc, canWrite }: { doc: Service; canWrite: boolean }) {
  const say = useSay();
  const localOnly = doc.syncState === 'pending';
  return (
    <>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <ServiceStatusChip status={doc.status} />
        {localOnly && (
          <Chip
            color="warning"
            variant="outlined"
            label={say('entityGrid.notUploaded')}
            sx={WARNING_OUTLINED_SX}
            data-testid="not-uploaded"
          />
        )}
      </Box>
      {doc.status === SERVICE_STATUS.rejected && (
        <Alert severity="error" data-testid="rejected-comment">
          <AlertTitle>{say('services.page.rejectedTitle')}</AlertTitle>
          <Box component="span" sx={{ display: 'block', whiteSpace: 'pre-line' }}>
            {doc.verifyComment
              ? say('services.page.rejectedComment', { comment: doc.verifyComment })
              : say('services.page.rejectedNoComment')}
          </Box>
          {canWrite && (
            <Box component="span" sx={{ display: 'block', mt: 0.5 }}>
              {say('services.page.rejectedHint')}
            </Box>
          )}
        </Alert>
      )}
      {localOnly && (
        <Alert severity="info">{say(doc.syncOp === 'create' ? 'services.page.localCreate' : 'services.page.localUpdate')}</Alert>
      )}
    </>
  );
}

/** Delete with reason and password; a service never uploaded is simply discarded (no server copy). */
function useDeletion(doc: Service) {
  const data = useDataLayer();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const neverUploaded = doc.syncState === 'pending' && doc.syncOp === 'create';
  const say = useSay();
  const done = (messageId: string) => {
    notify.success(say('services.page.deletedTitle'), say(messageId, { name: doc.name }));
    void navigate(servicePaths.list, { replace: true });
  };
  const remove = async (reason: string, password: string) => {
    if (!data) return;
    // Only the server can delete a record it has: say it in the user's language before trying.
    if (!savesOnline()) throw new Error(say('services.page.deleteNeedsOnline'));
    await data.remove(service, doc.sp_Detail_Id, { reason, password });
    emitPendingStatsChanged();
    done('services.page.deleted');
  };
  const discard = async () => {
    try {
      await data?.remove(service, doc.sp_Detail_Id);
      done('services.page.discarded');
    } catch (error) {
      reportFailure('services.page.deleteFailed', error);
    }
  };
  return { open, setOpen, neverUploaded, remove, discard };
}

function ServiceView({ doc }: { doc: Service }) {
  const user = useSessionUser();
  // A service belongs to its provider's organisation: edits are offered only where the server
  // would take them (the provider's owner, or role 1), never on another organisation's service.
  const provider = useRecord(serviceProvider, doc.sp_Id);
  const canWrite = provider.status === 'ready' && mayChange(user, service, provider.doc);
  const images = useRecordImages(service, doc);
  const deletion = useDeletion(doc);
  const online = savesOnline();
  const say = useSay();
  const localOnly = doc.syncState === 'pending' && doc.syncOp === 'create';

  const actions = (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Button component={RouterLink} to={servicePaths.list} startIcon={<ArrowBackIcon />}>
        {say('services.page.back')}
      </Button>
      {canWrite && (
        <>
          <Button component={RouterLink} to={servicePaths.edit(doc.sp_Detail_Id)} variant="contained" startIcon={<EditIcon />}>
            {say('services.page.edit')}
          </Button>
          <Button color="error" variant="outlined" startIcon={<DeleteOutlineIcon />} onClick={() => deletion.setOpen(true)}>
            {say(deletion.neverUploaded ? 'services.page.discard' : 'services.page.delete')}
          </Button>
        </>
      )}
    </Box>
  );

  return (
    <Page title={doc.name} actions={actions}>
      <StatusLine doc={doc} canWrite={canWrite} />
      <Details doc={doc} />
      <Card variant="outlined" component="section" aria-label={say('services.page.images')}>
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          <Typography variant="h6" component="h2">
            {say('services.page.images')}
          </Typography>
          <ServiceImages images={images} />
        </CardContent>
      </Card>
      <TrainingSection kind="appr" serviceId={doc.sp_Detail_Id} localOnly={localOnly} online={online} canWrite={canWrite} />
      <TrainingSection kind="voc" serviceId={doc.sp_Detail_Id} localOnly={localOnly} online={online} canWrite={canWrite} />
      {!localOnly && <HistorySection entity="service" recordId={doc.sp_Detail_Id} />}
      {deletion.neverUploaded ? (
        <ConfirmDialog
          open={deletion.open}
          title={say('services.page.discardTitle')}
          text={say('services.page.discardText')}
          confirmLabel={say('services.page.discard')}
          onCancel={() => deletion.setOpen(false)}
          onConfirm={() => void deletion.discard()}
        />
      ) : (
        <DeleteDialog
          open={deletion.open}
          entityLabel={say('services.page.entityLower')}
          name={doc.name}
          onCancel={() => deletion.setOpen(false)}
          onConfirm={deletion.remove}
        />
      )}
    </Page>
  );
}

export function ServicePage() {
  return <ServiceGate>{(doc) => <ServiceView doc={doc} />}</ServiceGate>;
}
