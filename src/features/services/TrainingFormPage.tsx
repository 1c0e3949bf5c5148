// Add or edit an apprenticeship or a vocational training of a service:
// `services/:id/appr/add`, `services/:id/appr/:key/edit` (and the same with `voc`).
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { Link, Typography } from '@mui/material';
import { service } from '../../../schemas/index';
import { Page } from '../../components';
import { EntityForm } from '../../components/entity';
import { type Doc, useDataLayer, useRecord } from '../../lib/data';
import { notify } from '../../lib/ui';
import { reportFailure } from './feedback';
import { servicePaths, useLeave, type TrainingKind } from './paths';
import { RecordGate } from '../../components/RecordGate';
import { TRAININGS } from './trainings';
import { useSay } from '../../lib/session';

type Service = Doc<typeof service>;

interface FormProps {
  kind: TrainingKind;
  parent: Service;
  /** The record edited; absent for a new one. */
  record?: Readonly<Record<string, unknown>>;
}

function TrainingForm({ kind, parent, record }: FormProps) {
  const say = useSay();
  const data = useDataLayer();
  const navigate = useNavigate();
  const settings = TRAININGS[kind];
  const back = servicePaths.page(parent.sp_Detail_Id);
  const leave = useLeave(back);
  const entityName = say(settings.entity.label);
  const key = record ? String(record[settings.key]) : undefined;
  // The version the edit is based on, as the form opened it (the live copy may move on).
  const [basedOn] = useState(() => (typeof record?.updatedAt === 'string' ? record.updatedAt : undefined));

  const submit = async (values: Record<string, unknown>) => {
    if (!data) return;
    const saved = key
      ? await data.update(settings.entity, key, values, [], { basedOn })
      : await data.create(settings.entity, { ...values, sp_d_Id: parent.sp_Detail_Id });
    const messageId = saved.syncState === 'synced' ? 'services.training.saved' : 'services.training.savedOffline';
    notify.success(say('services.training.savedTitle', { entity: entityName }), say(messageId, { entity: entityName }));
    void navigate(back, { replace: true });
  };

  return (
    <EntityForm
      entity={settings.entity}
      fields={settings.fields}
      initialValues={record ?? { sp_d_Id: parent.sp_Detail_Id }}
      recordKey={key}
      onSubmit={submit}
      onCancel={leave}
      onError={(error) => reportFailure('services.training.saveFailed', error)}
    />
  );
}

function ParentLine({ parent }: { parent: Service }) {
  const say = useSay();
  return (
    <Typography color="text.secondary">
      {say('entity.service')}:{' '}
      <Link component={RouterLink} to={servicePaths.page(parent.sp_Detail_Id)}>
        {parent.name}
      </Link>
    </Typography>
  );
}

function EditTraining({ kind, parent, recordKey }: { kind: TrainingKind; parent: Service; recordKey: string }) {
  const say = useSay();
  const settings = TRAININGS[kind];
  const record = useRecord(settings.entity, recordKey);
  return (
    <RecordGate
      record={record}
      backLabelId="services.page.back"
      failedId="services.page.loadFailed"
      notFoundId={settings.ids.notFound}
      backTo={servicePaths.page(parent.sp_Detail_Id)}
    >
      {(doc) =>
        // A record of another service under this one's address is not this service's to edit.
        doc.sp_d_Id !== parent.sp_Detail_Id ? (
          <Typography role="alert">{say(settings.ids.notFound)}</Typography>
        ) : (
          <TrainingForm kind={kind} parent={parent} record={doc as Readonly<Record<string, unknown>>} />
        )
      }
    </RecordGate>
  );
}

export function TrainingFormPage({ kind, mode }: { kind: TrainingKind; mode: 'add' | 'edit' }) {
  const say = useSay();
  const { id, key } = useParams();
  const parent = useRecord(service, id);
  const settings = TRAININGS[kind];
  return (
    <RecordGate
      record={parent}
      backLabelId="services.page.back"
      failedId="services.page.loadFailed"
      notFoundId="services.page.notFound"
      backTo={servicePaths.list}
    >
      {(doc) => (
        <Page title={say(mode === 'add' ? settings.ids.addTitle : settings.ids.editTitle)}>
          <ParentLine parent={doc} />
          {mode === 'add' || !key ? <TrainingForm kind={kind} parent={doc} /> : <EditTraining kind={kind} parent={doc} recordKey={key} />}
        </Page>
      )}
    </RecordGate>
  );
}
