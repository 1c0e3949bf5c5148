// `/serviceproviders/services/add[?sp_Id=]`: a new service of a provider. The provider comes
// from the link (a provider's page) or is searched here first; the form then opens with the
// provider's territory, and its draft is kept per provider.
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { Alert, Box, Button, Card, CardContent, Link, Typography } from '@mui/material';
import { recordTitle, service, serviceProvider } from '../../../schemas/index';
import { FullPageSpinner, Page } from '../../components';
import { NO_IMAGE_CHANGES, type ImageChanges } from '../../components/images';
import { useDataLayer, useRecord } from '../../lib/data';
import { emitPendingStatsChanged } from '../../lib/util';
import { notify } from '../../lib/ui';
import { reportFailure } from './feedback';
import { servicePaths, useLeave } from './paths';
import { ProviderPicker, type Provider } from './ProviderPicker';
import { ServiceForm } from './ServiceForm';
import { useSay } from '../../lib/session';

function ChosenProvider({ provider, onChange }: { provider: Provider; onChange: () => void }) {
  const say = useSay();
  return (
    <Card variant="outlined">
      <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', '&:last-child': { pb: 2 } }}>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography variant="body2" color="text.secondary">
            {say('field.service.sp_Id')}
          </Typography>
          <Link component={RouterLink} to={servicePaths.provider(provider.sp_Id)} variant="subtitle1" data-testid="chosen-provider">
            {recordTitle(serviceProvider, provider)}
          </Link>
        </Box>
        <Button onClick={onChange}>{say('services.add.changeProvider')}</Button>
      </CardContent>
    </Card>
  );
}

function NewServiceForm({ provider, onChangeProvider }: { provider: Provider; onChangeProvider: () => void }) {
  const say = useSay();
  const data = useDataLayer();
  const navigate = useNavigate();
  const leave = useLeave(servicePaths.list);
  const [images, setImages] = useState<ImageChanges>(NO_IMAGE_CHANGES);

  const submit = async (values: Record<string, unknown>) => {
    if (!data) return;
    const doc = await data.create(service, { ...values, sp_Id: provider.sp_Id }, images.images);
    const saved = doc.syncState === 'synced';
    notify.success(
      say('services.saved.createdTitle'),
      say(saved ? 'services.saved.created' : 'services.saved.createdOffline', { name: doc.name }),
    );
    if (saved) emitPendingStatsChanged();
    setImages(NO_IMAGE_CHANGES);
    void navigate(servicePaths.page(doc.sp_Detail_Id), { replace: true });
  };

  return (
    <ServiceForm
      header={<ChosenProvider provider={provider} onChange={onChangeProvider} />}
      initialValues={{ sp_Id: provider.sp_Id, territory: provider.territory }}
      images={images}
      onImages={setImages}
      onSubmit={submit}
      onCancel={leave}
      onError={(error) => reportFailure('services.saveFailed', error)}
    />
  );
}

export function ServiceAddPage() {
  const say = useSay();
  const [params, setParams] = useSearchParams();
  const spId = params.get('sp_Id') ?? undefined;
  const provider = useRecord(serviceProvider, spId);
  const choose = (p: Provider | null) => setParams(p ? { sp_Id: p.sp_Id } : {}, { replace: true });
  const title = say('services.add.title');

  if (spId && provider.status === 'loading') return <FullPageSpinner label={say('common.loading')} />;
  return (
    <Page title={title}>
      {provider.status === 'ready' ? (
        // One form per provider: its draft is that provider's.
        <NewServiceForm key={provider.doc.sp_Id} provider={provider.doc} onChangeProvider={() => choose(null)} />
      ) : (
        <Card variant="outlined">
          <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            {spId && provider.status === 'missing' && <Alert severity="warning">{say('services.add.providerMissing')}</Alert>}
            {provider.status === 'failed' && (
              <Alert
                severity="error"
                action={
                  <Button color="inherit" size="small" onClick={provider.retry}>
                    {say('entityGrid.retry')}
                  </Button>
                }
              >
                {say('services.add.providerFailed')}
              </Alert>
            )}
            <Typography>{say('services.add.chooseProvider')}</Typography>
            <ProviderPicker value={null} onChange={choose} autoFocus />
          </CardContent>
        </Card>
      )}
    </Page>
  );
}
