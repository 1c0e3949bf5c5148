// `/serviceproviders/:spId`: one provider, its details, its map and its services, with Edit and
// Delete for the roles that may change providers.
import { Link as RouterLink, useParams } from 'react-router';
import { Alert, Box, Button, Chip, Grid } from '@mui/material';
import { darken } from '@mui/material/styles';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import EditIcon from '@mui/icons-material/Edit';
import { FullPageSpinner, Page, useSessionUser } from '../../components';
import { messageOf } from '../../components/entity';
import type { DataLayer } from '../../lib/data';
import { recordTitle, serviceProvider } from '../../../schemas/index';
import { mayChange, useSay } from '../../lib/session';
import { HistorySection } from '../audit';
import { DeleteProvider } from './DeleteProvider';
import { PROVIDERS_PATH, providerEditPath, providerPath } from './paths';
import { ProviderFields, ProviderMap } from './ProviderDetails';
import { ProviderServices } from './ProviderServices';
import { StoreGate } from './StoreGate';
import { useProvider, type ProviderDoc, type ProviderState } from './useProvider';

export function BackToList() {
  const say = useSay();
  return (
    <Box>
      <Button component={RouterLink} to={PROVIDERS_PATH} startIcon={<ArrowBackIcon />} size="small">
        {say('providers.page.back')}
      </Button>
    </Box>
  );
}

export function BackToProvider({ spId }: { spId: string }) {
  const say = useSay();
  return (
    <Box>
      <Button component={RouterLink} to={providerPath(spId)} startIcon={<ArrowBackIcon />} size="small">
        {say('providers.page.backToProvider')}
      </Button>
    </Box>
  );
}

/** Loading, unknown and failed states of a provider screen, said plainly. */
export function ProviderProblem({ state }: { state: Exclude<ProviderState, { status: 'ready' }> }) {
  const say = useSay();
  if (state.status === 'loading') return <FullPageSpinner label={say('common.loading')} />;
  return (
    <>
      <Alert severity={state.status === 'missing' ? 'warning' : 'error'} data-testid="provider-problem">
        {state.status === 'missing' ? say('providers.page.missing') : say('providers.page.loadFailed', { message: messageOf(state.error) })}
      </Alert>
      <BackToList />
    </>
  );
}

function Actions({ doc, data }: { doc: ProviderDoc; data: DataLayer }) {
  const say = useSay();
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Button component={RouterLink} to={providerEditPath(doc.sp_Id)} variant="contained" startIcon={<EditIcon />}>
        {say('providers.page.edit')}
      </Button>
      <DeleteProvider doc={doc} data={data} />
    </Box>
  );
}

function Provider({ doc, data }: { doc: ProviderDoc; data: DataLayer }) {
  const say = useSay();
  const user = useSessionUser();
  // Another organisation's provider is read-only here, as in the API.
  const canWrite = mayChange(user, serviceProvider, doc);
  const title = (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      {recordTitle(serviceProvider, doc)}
      {doc.syncState === 'pending' && (
        <Chip
          size="small"
          variant="outlined"
          label={say('entityGrid.notUploaded')}
          data-testid="not-uploaded"
          // Orange text needs its darker shade on white (and lighter on dark paper) to be read.
          sx={(theme) => {
            const shade = theme.palette.mode === 'dark' ? theme.palette.warning.light : darken(theme.palette.warning.dark, 0.25);
            return { color: shade, borderColor: shade };
          }}
        />
      )}
    </Box>
  );
  return (
    <Page title={title} actions={canWrite && <Actions doc={doc} data={data} />}>
      <BackToList />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <ProviderFields doc={doc} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <ProviderMap doc={doc} />
        </Grid>
      </Grid>
      <ProviderServices data={data} spId={doc.sp_Id} name={recordTitle(serviceProvider, doc)} canAdd={canWrite} />
      {!(doc.syncState === 'pending' && doc.syncOp === 'create') && <HistorySection entity="serviceProvider" recordId={doc.sp_Id} />}
    </Page>
  );
}

function Loaded({ spId, data }: { spId: string; data: DataLayer }) {
  const say = useSay();
  const state = useProvider(spId);
  if (state.status === 'ready') return <Provider doc={state.doc} data={data} />;
  return (
    <Page title={say('entity.serviceProvider')}>
      <ProviderProblem state={state} />
    </Page>
  );
}

export function ProviderPage() {
  const { spId = '' } = useParams();
  return <StoreGate>{(data) => <Loaded key={spId} spId={spId} data={data} />}</StoreGate>;
}
