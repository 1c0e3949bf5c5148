// `/serviceproviders/services/:id/edit`: the service's fields and images (keep, replace,
// remove). Saving a rejected service sends it back for verification (the server does it,
// docs/api.md); the message says so.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { service, SERVICE_STATUS } from '../../../schemas/index';
import { Page } from '../../components';
import { NO_IMAGE_CHANGES, useRecordImages, type ImageChanges } from '../../components/images';
import { type Doc, useDataLayer } from '../../lib/data';
import { emitPendingStatsChanged } from '../../lib/util';
import { notify } from '../../lib/ui';
import { reportFailure } from './feedback';
import { servicePaths, useLeave } from './paths';
import { ServiceGate } from './ServiceGate';
import { ServiceForm, withRemovedImages } from './ServiceForm';
import { useSay } from '../../lib/session';

type Service = Doc<typeof service>;

function savedMessage(before: Service, after: Service): string {
  const stored = after.syncState === 'synced';
  if (before.status === SERVICE_STATUS.rejected) return stored ? 'services.saved.resubmitted' : 'services.saved.resubmittedOffline';
  return stored ? 'services.saved.updated' : 'services.saved.updatedOffline';
}

function EditForm({ doc }: { doc: Service }) {
  const say = useSay();
  const data = useDataLayer();
  const navigate = useNavigate();
  const leave = useLeave(servicePaths.page(doc.sp_Detail_Id));
  // The record as the form opened it: the live copy changes under it once saved.
  const [opened] = useState(doc);
  const existing = useRecordImages(service, doc);
  const [images, setImages] = useState<ImageChanges>(NO_IMAGE_CHANGES);

  const submit = async (values: Record<string, unknown>) => {
    if (!data) return;
    const after = await data.update(service, opened.sp_Detail_Id, withRemovedImages(values, images), images.images, {
      basedOn: opened.updatedAt,
    });
    notify.success(say('services.saved.updatedTitle'), say(savedMessage(opened, after), { name: after.name }));
    if (after.syncState === 'synced' && opened.status === SERVICE_STATUS.rejected) emitPendingStatsChanged();
    setImages(NO_IMAGE_CHANGES);
    void navigate(servicePaths.page(opened.sp_Detail_Id), { replace: true });
  };

  return (
    <ServiceForm
      initialValues={opened}
      recordKey={opened.sp_Detail_Id}
      existingImages={existing}
      images={images}
      onImages={setImages}
      onSubmit={submit}
      onCancel={leave}
      onError={(error) => reportFailure('services.saveFailed', error)}
    />
  );
}

export function ServiceEditPage() {
  const say = useSay();
  return (
    <ServiceGate>
      {(doc) => (
        <Page title={say('services.edit.title', { name: doc.name })}>
          <EditForm doc={doc} />
        </Page>
      )}
    </ServiceGate>
  );
}
