// `/serviceproviders/add` and `/serviceproviders/:spId/edit`: the provider form on its own
// screen. On success: the provider's page and a note saying where it was saved.
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { recordTitle, serviceProvider } from '../../../schemas/index';
import { Page } from '../../components';
import type { DataLayer } from '../../lib/data';
import { notify } from '../../lib/ui';
import { useSay, type Say } from '../../lib/session';
import { PROVIDERS_PATH, providerPath } from './paths';
import { BackToList, BackToProvider, ProviderProblem } from './ProviderPage';
import { ProviderForm } from './ProviderForm';
import { rebaseDraft } from './rebase';
import { StoreGate } from './StoreGate';
import { useProvider, type ProviderDoc } from './useProvider';

function saved(say: Say, doc: ProviderDoc): void {
  const local = doc.syncState === 'pending';
  notify.success(
    say('providers.form.savedTitle'),
    say(local ? 'providers.form.savedLocal' : 'providers.form.saved', { name: recordTitle(serviceProvider, doc) }),
  );
}

function AddForm({ data }: { data: DataLayer }) {
  const say = useSay();
  const navigate = useNavigate();
  return (
    <ProviderForm
      onSubmit={async (values) => {
        const doc = await data.create(serviceProvider, values);
        saved(say, doc);
        void navigate(providerPath(doc.sp_Id));
      }}
      onCancel={() => void navigate(PROVIDERS_PATH)}
    />
  );
}

export function AddProviderPage() {
  const say = useSay();
  return (
    <Page title={say('screens.addServiceProvider')}>
      <BackToList />
      <StoreGate>{(data) => <AddForm data={data} />}</StoreGate>
    </Page>
  );
}

interface EditBodyProps {
  doc: ProviderDoc;
  data: DataLayer;
  /** The copy a refused edit was based on: its draft is rebased onto `doc` first. */
  refused: ProviderDoc | null;
  onConflict: (base: ProviderDoc) => void;
}

/** The form over the copy it was opened on. `base` is that copy's version: the live copy may
 * have moved on meanwhile (a colleague's change pulled by replication), and saving over it
 * without a word would undo their change. */
function EditBody({ doc, data, refused, onConflict }: EditBodyProps) {
  const say = useSay();
  const navigate = useNavigate();
  // Before the form reads its draft (its first render comes after this one's).
  const [base] = useState(() => {
    if (refused) rebaseDraft(serviceProvider.name, doc.sp_Id, refused);
    return doc;
  });
  const spId = doc.sp_Id;
  return (
    <ProviderForm
      initial={base}
      recordKey={spId}
      onSubmit={async (values) => {
        saved(say, await data.update(serviceProvider, spId, values, [], { basedOn: base.updatedAt }));
        void navigate(providerPath(spId));
      }}
      onCancel={() => void navigate(providerPath(spId))}
      onConflict={() => onConflict(base)}
    />
  );
}

function EditForm({ spId, data }: { spId: string; data: DataLayer }) {
  const say = useSay();
  // Read again after a conflict: the form remounts on the server's copy, the draft over it.
  const [version, setVersion] = useState(0);
  const [refused, setRefused] = useState<ProviderDoc | null>(null);
  const state = useProvider(spId, version);
  if (state.status !== 'ready') {
    return (
      <Page title={say('providers.form.editTitle', { name: '' })}>
        <ProviderProblem state={state} />
      </Page>
    );
  }
  return (
    <Page title={say('providers.form.editTitle', { name: recordTitle(serviceProvider, state.doc) })}>
      <BackToProvider spId={spId} />
      <EditBody
        key={version}
        doc={state.doc}
        data={data}
        refused={refused}
        onConflict={(base) => {
          setRefused(base);
          setVersion((v) => v + 1);
        }}
      />
    </Page>
  );
}

export function EditProviderPage() {
  const { spId = '' } = useParams();
  return <StoreGate>{(data) => <EditForm key={spId} spId={spId} data={data} />}</StoreGate>;
}
