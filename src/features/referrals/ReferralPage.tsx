// /referral/{id} and /referral/job/{id}: following one referral (ADR-0029). Who was referred
// where, the dates and the reason or note; the status moved forward with feedback and date;
// the history of every change with who and when; a service referral's documents.
import { useState, type ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { Alert, Box, Button, Card, CardContent, Chip, Grid, Link, List, ListItem, ListItemText, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { FullPageSpinner, Page, useSessionUser } from '../../components';
import { HistorySection } from '../audit';
import { lookupLabel, messageOf, useDisplayContext } from '../../components/entity';
import { formatDate, formatDateTime } from '../../lib/ui';
import { can, useSay } from '../../lib/session';
import { isOpenStatus, job, recordTitle, service, serviceProvider } from '../../../schemas/index';
import { Attachments } from './Attachments';
import { KIND_INFO, today, type ReferralKind } from './kinds';
import { referralPaths } from './paths';
import { useConnected } from './live';
import { NeedsConnection } from './OnlineOnly';
import type { Row, StatusChange } from './referralApi';
import { ReferralStatusChip } from './ReferralStatusChip';
import { clientName } from './names';
import { StatusForm } from './StatusForm';
import { useReferral, type ReferralBundle } from './useReferral';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card variant="outlined" component="section" aria-labelledby={id}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Typography id={id} component="h2" variant="h6">
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** Label and value pairs as a description list. */
function Facts({ items }: { items: readonly [string, ReactNode][] }) {
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(140px, max-content) 1fr' }, columnGap: 2, rowGap: 0.5, m: 0 }}
    >
      {items.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {value === '' || value === null || value === undefined ? '—' : value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function Details({ kind, bundle }: { kind: ReferralKind; bundle: ReferralBundle }) {
  const ctx = useDisplayContext();
  const say = useSay();
  const { referral, client, target } = bundle;
  const provider = (target?.provider as Row | undefined) ?? null;
  const clientLink = client ? (
    <Link component={RouterLink} to={referralPaths.client(String(referral.prof_Id))}>
      {`${clientName(client)} (${text(client.prof_Reg_No)})`}
    </Link>
  ) : (
    say('referrals.page.unknownClient')
  );
  const targetKey = String(referral[KIND_INFO[kind].target]);
  const targetLink = target ? (
    <Link component={RouterLink} to={kind === 'service' ? referralPaths.service(targetKey) : referralPaths.job(targetKey)}>
      {text(recordTitle(kind === 'service' ? service : job, target))}
    </Link>
  ) : (
    say('referrals.page.unknownTarget')
  );
  const items: [string, ReactNode][] = [[say('field.referral.clientName'), clientLink]];
  if (kind === 'service') {
    items.push(
      [say('field.referral.serviceName'), targetLink],
      [say('field.referral.providerName'), text(provider ? recordTitle(serviceProvider, provider) : undefined)],
      [say('field.referral.category'), target ? lookupLabel(ctx.lists, 'category', target.category as number, ctx.lang) : ''],
      [say('field.referral.reason'), text(referral.reason)],
    );
  } else {
    items.push(
      [say('field.jobReferral.jobTitle'), targetLink],
      [say('field.jobReferral.employer'), text(target?.employer)],
      [say('field.jobReferral.sector'), target ? lookupLabel(ctx.lists, 'sector', target.sector as number, ctx.lang) : ''],
      [say('field.jobReferral.note'), text(referral.note)],
    );
  }
  items.push(
    [say('field.referral.date'), formatDate(text(referral.date), ctx.lang)],
    [say('field.referral.followUpDate'), formatDate(text(referral.followUpDate), ctx.lang)],
    [say('field.referral.statusDate'), formatDate(text(referral.statusDate), ctx.lang)],
    [say('field.referral.feedback'), text(referral.feedback)],
  );
  return <Facts items={items} />;
}

function History({ kind, history }: { kind: ReferralKind; history: readonly StatusChange[] }) {
  const say = useSay();
  const ctx = useDisplayContext();
  if (!history.length) return <Typography color="text.secondary">{say('referrals.history.none')}</Typography>;
  return (
    <List dense disablePadding data-testid="referral-history">
      {history
        .map((change, index) => ({ change, followUp: index > 0 && history[index - 1]?.status === change.status }))
        .reverse()
        .map(({ change, followUp }) => (
          <ListItem
            key={`${change.at}-${change.status}`}
            disableGutters
            alignItems="flex-start"
            sx={{ gap: 1.5 }}
            data-follow-up={followUp || undefined}
          >
            <Box sx={{ pt: 0.75, minWidth: 96 }}>
              {/* A follow-up without a new status: its note, under the status it kept. */}
              {followUp ? (
                <Chip size="small" variant="outlined" label={say('referrals.history.followUp')} />
              ) : (
                <ReferralStatusChip kind={kind} status={change.status} />
              )}
            </Box>
            <ListItemText
              primary={say('referrals.history.entry', {
                date: formatDate(change.date ?? change.at, ctx.lang),
                name: change.byName,
                at: formatDateTime(change.at, ctx.lang),
              })}
              secondary={change.feedback ?? undefined}
              slotProps={{ secondary: { sx: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } } }}
            />
          </ListItem>
        ))}
    </List>
  );
}

function ReferralView({ kind, bundle, onReferral }: { kind: ReferralKind; bundle: ReferralBundle; onReferral: (row: Row) => void }) {
  const say = useSay();
  const user = useSessionUser();
  const canWrite = can(user?.role, KIND_INFO[kind].entity.access.write);
  const [conflict, setConflict] = useState(false);
  const { referral, client } = bundle;
  const status = String(referral.status);
  const overdue =
    typeof referral.followUpDate === 'string' && referral.followUpDate < today() && isOpenStatus(KIND_INFO[kind].flow, status);
  const title = say(kind === 'service' ? 'referrals.page.titleService' : 'referrals.page.titleJob', {
    name: clientName(client) || say('referrals.page.unknownClient'),
  });
  const back = (
    <Button component={RouterLink} to={referralPaths.list(kind)} startIcon={<ArrowBackIcon />}>
      {say('referrals.page.back')}
    </Button>
  );
  return (
    <Page title={title} actions={back}>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <ReferralStatusChip kind={kind} status={status} />
        {overdue && (
          <Alert severity="warning" sx={{ py: 0 }}>
            {say('referrals.page.overdue')}
          </Alert>
        )}
      </Box>
      {conflict && (
        <Alert severity="warning" onClose={() => setConflict(false)} data-testid="referral-conflict">
          {say('referrals.follow.conflict')}
        </Alert>
      )}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 7 }} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Section id="referral-details" title={say('referrals.page.details')}>
            <Details kind={kind} bundle={bundle} />
          </Section>
          {canWrite && (
            <Section id="referral-follow" title={say('referrals.follow.title')}>
              <StatusForm
                key={String(referral.updatedAt)}
                kind={kind}
                referral={referral}
                onSaved={(row) => {
                  setConflict(false);
                  onReferral(row);
                }}
                onConflict={(server) => {
                  setConflict(true);
                  onReferral(server);
                }}
              />
            </Section>
          )}
        </Grid>
        <Grid size={{ xs: 12, md: 5 }} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Section id="referral-history-title" title={say('referrals.history.title')}>
            <History kind={kind} history={(referral.history as StatusChange[] | null) ?? []} />
          </Section>
          {kind === 'service' && (
            <Section id="referral-attachments" title={say('referrals.attachments.title')}>
              <Attachments referral={referral} canWrite={canWrite} onSaved={onReferral} />
            </Section>
          )}
        </Grid>
      </Grid>
      <HistorySection entity={KIND_INFO[kind].entity.name} recordId={String(referral[KIND_INFO[kind].key])} />
    </Page>
  );
}

function ReferralScreen({ kind }: { kind: ReferralKind }) {
  const say = useSay();
  const { id = '' } = useParams();
  const connected = useConnected();
  const { state, setReferral, reload } = useReferral(kind, id, connected);
  const back = (
    <Button component={RouterLink} to={referralPaths.list(kind)} startIcon={<ArrowBackIcon />}>
      {say('referrals.page.back')}
    </Button>
  );
  if (!connected) {
    return (
      <Page title={say('screens.referral')} actions={back}>
        <NeedsConnection />
      </Page>
    );
  }
  if (state.status === 'loading') return <FullPageSpinner label={say('common.loading')} />;
  if (state.status === 'ready') return <ReferralView kind={kind} bundle={state.bundle} onReferral={setReferral} />;
  return (
    <Page title={say('screens.referral')} actions={back}>
      {state.status === 'error' ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={reload}>
              {say('entityGrid.retry')}
            </Button>
          }
        >
          {say('referrals.page.loadFailed', { message: messageOf(state.error) })}
        </Alert>
      ) : (
        <Alert severity="warning" data-testid="referral-missing">
          {say('referrals.page.notFound')}
        </Alert>
      )}
    </Page>
  );
}

export const ServiceReferralPage = () => <ReferralScreen kind="service" />;
export const JobReferralPage = () => <ReferralScreen kind="job" />;
