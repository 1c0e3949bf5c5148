// /referral/new?kind=service|job&client={prof_Id}: making a referral (ADR-0029), from a
// client's page (the client is given) or from the list (the client is searched). Choose the
// service (list or map) or the job, then the date, the reason or note and a follow-up date;
// a service referral takes documents, sent right after the referral is stored.
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  List,
  ListItem,
  ListItemText,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { uuidv7 } from '../../../schemas/ids';
import { Page } from '../../components';
import { EntityForm, messageOf, type Problem } from '../../components/entity';
import { notify } from '../../lib/ui';
import { FilePickButton, MAX_ATTACHMENTS } from './Attachments';
import { ClientPicker, clientLabel } from './ClientPicker';
import { KIND_INFO, REFERRAL_KINDS, today, type ReferralKind } from './kinds';
import { referralPaths } from './paths';
import { useConnected } from './live';
import { NeedsConnection } from './OnlineOnly';
import { attachFiles, createReferral, getRecord, type Row } from './referralApi';
import { TargetChooser } from './TargetChooser';
import { useSay } from '../../lib/session';

const FORM_FIELDS: Record<ReferralKind, readonly string[]> = {
  service: ['date', 'reason', 'followUpDate'],
  job: ['date', 'note', 'followUpDate'],
};

/** A follow-up cannot come before the referral. */
function validateDates(values: Record<string, unknown>): Record<string, Problem> {
  const { date, followUpDate } = values;
  return typeof date === 'string' && typeof followUpDate === 'string' && followUpDate && followUpDate < date
    ? { followUpDate: { id: 'referrals.follow.beforeReferral' } }
    : {};
}

function Step({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <Card variant="outlined" component="section" aria-labelledby={`referral-step-${n}`}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Typography id={`referral-step-${n}`} component="h2" variant="h6">
          {`${n}. ${title}`}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** The client given in the address, loaded once. */
function useGivenClient(profId: string | null, connected: boolean) {
  const [client, setClient] = useState<Row | null>(null);
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    if (!profId || !connected) return;
    let current = true;
    getRecord(`/profile/${encodeURIComponent(profId)}`).then(
      (row) => {
        if (!current) return;
        setClient(row);
        setMissing(row === null);
      },
      () => current && setMissing(true),
    );
    return () => {
      current = false;
    };
  }, [profId, connected]);
  return { client, setClient, missing };
}

function ChosenFiles({ files, onRemove }: { files: readonly File[]; onRemove: (file: File) => void }) {
  const say = useSay();
  if (!files.length) return null;
  return (
    <List dense disablePadding data-testid="chosen-files">
      {files.map((file) => (
        <ListItem
          key={`${file.name}-${file.size}`}
          disableGutters
          secondaryAction={
            <Button size="small" onClick={() => onRemove(file)}>
              {say('referrals.new.removeFile')}
            </Button>
          }
        >
          <ListItemText primary={file.name} slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }} />
        </ListItem>
      ))}
    </List>
  );
}

export function NewReferralPage() {
  const say = useSay();
  const navigate = useNavigate();
  const connected = useConnected();
  const [params, setParams] = useSearchParams();
  const kind: ReferralKind = params.get('kind') === 'job' ? 'job' : 'service';
  const given = useGivenClient(params.get('client'), connected);
  const [target, setTarget] = useState<Row | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  const info = KIND_INFO[kind];
  const client = given.client;
  const targetKey = target ? String(target[info.target]) : '';

  const setKind = (next: ReferralKind) => {
    setTarget(null);
    const copy = new URLSearchParams(params);
    copy.set('kind', next);
    setParams(copy, { replace: true });
  };

  const save = async (values: Record<string, unknown>) => {
    if (!client || !target) return;
    const key = uuidv7();
    const created = await createReferral(kind, { ...values, [info.key]: key, prof_Id: client.prof_Id, [info.target]: targetKey });
    if (kind === 'service' && files.length) {
      try {
        await attachFiles(key, files);
      } catch (error) {
        // The referral is stored; its page offers to add the documents again.
        notify.error(say('referrals.new.filesFailedTitle'), say('referrals.attachments.failed', { message: messageOf(error) }));
      }
    }
    notify.success(say('referrals.new.saved'));
    void navigate(referralPaths.page(kind, String(created[info.key] ?? key)), { replace: true });
  };

  const title = say(kind === 'service' ? 'referrals.new.titleService' : 'referrals.new.titleJob');
  if (!connected) {
    return (
      <Page title={title}>
        <NeedsConnection />
      </Page>
    );
  }
  return (
    <Page title={title}>
      <ToggleButtonGroup
        exclusive
        size="small"
        color="primary"
        value={kind}
        onChange={(_event, next: ReferralKind | null) => next && setKind(next)}
        aria-label={say('referrals.new.kind')}
      >
        {REFERRAL_KINDS.map((k) => (
          <ToggleButton key={k} value={k} sx={{ px: 2 }}>
            {say(`referrals.tab.${k}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {given.missing && <Alert severity="warning">{say('referrals.new.clientMissing')}</Alert>}
      <Step n={1} title={say('referrals.new.client')}>
        <ClientPicker value={client} onChange={given.setClient} />
      </Step>
      <Step n={2} title={say(kind === 'service' ? 'referrals.new.chooseService' : 'referrals.new.chooseJob')}>
        {target ? (
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }} data-testid="chosen-target">
            <Chip color="primary" label={String(kind === 'service' ? target.name : target.title)} />
            <Button size="small" onClick={() => setTarget(null)}>
              {say('referrals.new.change')}
            </Button>
          </Box>
        ) : (
          <TargetChooser key={kind} kind={kind} onChoose={setTarget} />
        )}
      </Step>
      <Step n={3} title={say('referrals.new.details')}>
        {client && target ? (
          <EntityForm
            key={`${kind}-${String(client.prof_Id)}-${targetKey}`}
            entity={info.entity}
            fields={FORM_FIELDS[kind]}
            initialValues={{ prof_Id: client.prof_Id, [info.target]: targetKey, date: today() }}
            validate={validateDates}
            submitLabel={say('referrals.new.submit')}
            onSubmit={save}
            onCancel={() => void navigate(-1)}
          >
            {kind === 'service' && (
              <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
                <Typography variant="subtitle2" component="h3">
                  {say('referrals.attachments.title')}
                </Typography>
                <ChosenFiles files={files} onRemove={(file) => setFiles(files.filter((f) => f !== file))} />
                <Box>
                  <FilePickButton
                    label={say('referrals.attachments.add')}
                    disabled={files.length >= MAX_ATTACHMENTS}
                    onFiles={(chosen) => setFiles([...files, ...chosen].slice(0, MAX_ATTACHMENTS))}
                  />
                </Box>
              </Box>
            )}
          </EntityForm>
        ) : (
          <Typography color="text.secondary">
            {say(client ? 'referrals.new.chooseFirstTarget' : 'referrals.new.chooseFirstClient')}
          </Typography>
        )}
      </Step>
      {client && (
        <Typography variant="body2" color="text.secondary">
          {say('referrals.new.forClient', { name: clientLabel(client) })}
        </Typography>
      )}
    </Page>
  );
}
