// /profiles/add and /profiles/edit/:profId: the client step form (ADR-0028). One step per part
// of a client (identity, basic services, skills, social, security, business start, photo and
// documents) and a review; vertical on a phone. Each step checks its fields with the server's
// rules before the next; the optional records can be skipped; the whole registration is kept as
// a draft until it is saved, online to the API in the spec's order, offline in the store.
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { Button } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { recordTitle } from '../../../schemas/index';
import { FullPageSpinner, Page } from '../../components';
import { ClientGate } from './ClientGate';
import { useSay } from '../../lib/session';
import { ClientForm } from './ClientForm';
import { clientPath } from './paths';
import { profile, STEPS, SUB_PARTS, type StepId } from './steps';
import { recordsSettled, storedRecord, useClient, useClientFiles } from './useClient';

export function ClientAddPage() {
  const say = useSay();
  return (
    <Page title={say('screens.addProfile')}>
      <ClientForm stored={null} storedFiles={[]} editedId={null} />
    </Page>
  );
}

export function ClientEditPage() {
  const say = useSay();
  const { profId = '' } = useParams();
  const [params] = useSearchParams();
  const asked = params.get('step') as StepId | null;
  const initialStep = asked && STEPS.includes(asked) ? asked : undefined;
  const { client, records } = useClient(profId);
  const { files, loading } = useClientFiles(profId);
  const back = (
    <Button component={RouterLink} to={clientPath(profId)} startIcon={<ArrowBackIcon />}>
      {say('clients.page.backToClient')}
    </Button>
  );
  const name = client.status === 'ready' ? recordTitle(profile, client.doc, 'short') : '';
  return (
    <Page title={name ? say('clients.form.editTitle', { name }) : say('clients.form.editTitleShort')} actions={back}>
      <ClientGate client={client}>
        {(doc) =>
          !recordsSettled(records) || loading ? (
            <FullPageSpinner label={say('common.loading')} />
          ) : (
            <ClientForm
              key={profId}
              stored={{ profile: doc, records: Object.fromEntries(SUB_PARTS.map((p) => [p, storedRecord(records[p])])) }}
              storedFiles={files}
              editedId={profId}
              initialStep={initialStep}
            />
          )
        }
      </ClientGate>
    </Page>
  );
}
