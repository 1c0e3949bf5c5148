// A client's referrals on the client's page (ADR-0029): their service referrals and job
// referrals with status and dates, each linking to its page, and the "refer" buttons. Online
// only; offline it says that referrals need a connection. Mounted by the clients feature:
// <ClientReferrals profId={prof_Id} />.
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Link,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import WorkIcon from '@mui/icons-material/Work';
import { useSessionUser } from '../../components';
import { countText, messageOf, useDisplayContext } from '../../components/entity';
import { formatDate } from '../../lib/ui';
import { can, useSay } from '../../lib/session';
import { KIND_INFO, REFERRAL_KINDS, type ReferralKind } from './kinds';
import { referralPaths } from './paths';
import { useConnected, useTableChanges } from './live';
import { NeedsConnection } from './OnlineOnly';
import { searchReferrals, type Row } from './referralApi';
import { ReferralStatusChip } from './ReferralStatusChip';

type Loaded =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; rows: Row[]; total: number; totalIsLowerBound?: boolean };

function useClientReferrals(kind: ReferralKind, profId: string, connected: boolean, refresh: number): Loaded {
  const [state, setState] = useState<Loaded>({ status: 'loading' });
  useEffect(() => {
    if (!connected) return;
    let current = true;
    searchReferrals(kind, { filter: { prof_Id: profId }, pageSize: 50, page: 1, sort: 'date', dir: 'desc' }).then(
      (page) => current && setState({ status: 'ready', rows: page.rows, total: page.total, totalIsLowerBound: page.totalIsLowerBound }),
      (error: unknown) => current && setState({ status: 'error', error }),
    );
    return () => {
      current = false;
    };
  }, [kind, profId, connected, refresh]);
  return state;
}

function ReferralTable({ kind, profId, connected, refresh }: { kind: ReferralKind; profId: string; connected: boolean; refresh: number }) {
  const ctx = useDisplayContext();
  const say = useSay();
  const state = useClientReferrals(kind, profId, connected, refresh);
  const info = KIND_INFO[kind];
  const heading = `client-referrals-${kind}`;
  return (
    <Box component="section" aria-labelledby={heading} sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography id={heading} component="h3" variant="subtitle1">
        {say(`referrals.tab.${kind}`)}
        {state.status === 'ready' ? ` (${countText(say, state.total, state.totalIsLowerBound)})` : ''}
      </Typography>
      {state.status === 'error' && (
        <Alert severity="error">{say('referrals.client.loadFailed', { message: messageOf(state.error) })}</Alert>
      )}
      {state.status === 'ready' && state.rows.length === 0 && (
        <Typography color="text.secondary">{say('referrals.client.none')}</Typography>
      )}
      {state.status === 'ready' && state.rows.length > 0 && (
        <TableContainer>
          <Table size="small" aria-labelledby={heading} data-testid={`client-referrals-${kind}`}>
            <TableHead>
              <TableRow>
                <TableCell>{say(kind === 'service' ? 'field.referral.serviceName' : 'field.jobReferral.jobTitle')}</TableCell>
                <TableCell>{say('field.referral.status')}</TableCell>
                <TableCell>{say('field.referral.date')}</TableCell>
                <TableCell>{say('field.referral.followUpDate')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {state.rows.map((row) => (
                <TableRow key={String(row[info.key])}>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    <Link component={RouterLink} to={referralPaths.page(kind, String(row[info.key]))}>
                      {String((kind === 'service' ? row.serviceName : row.jobTitle) ?? say('referrals.page.unknownTarget'))}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <ReferralStatusChip kind={kind} status={String(row.status)} />
                  </TableCell>
                  <TableCell>{formatDate(row.date as string, ctx.lang)}</TableCell>
                  <TableCell>
                    {formatDate(row.followUpDate as string | null, ctx.lang)}
                    {row.overdue === true && (
                      <Typography component="span" variant="body2" color="warning.main" sx={{ display: 'block' }}>
                        {say('referrals.overdue')}
                      </Typography>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}

export function ClientReferrals({ profId }: { profId: string }) {
  const say = useSay();
  const user = useSessionUser();
  const connected = useConnected();
  const [refresh, setRefresh] = useState(0);
  useTableChanges(
    REFERRAL_KINDS.map((k) => KIND_INFO[k].table),
    () => setRefresh((n) => n + 1),
    connected,
  );
  if (!can(user?.role, 'referrals.read')) return null;
  const canRefer = can(user?.role, 'referrals.write');
  return (
    <Card variant="outlined" component="section" aria-labelledby="client-referrals-title" data-testid="client-referrals">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <Typography id="client-referrals-title" component="h2" variant="h6" sx={{ flexGrow: 1 }}>
            {say('referrals.client.title')}
          </Typography>
          {canRefer && connected && (
            <>
              <Button
                component={RouterLink}
                to={referralPaths.add('service', profId)}
                variant="contained"
                size="small"
                startIcon={<AddIcon />}
              >
                {say('referrals.action.referService')}
              </Button>
              <Button component={RouterLink} to={referralPaths.add('job', profId)} variant="outlined" size="small" startIcon={<WorkIcon />}>
                {say('referrals.action.referJob')}
              </Button>
            </>
          )}
        </Box>
        {connected ? (
          REFERRAL_KINDS.map((kind) => <ReferralTable key={kind} kind={kind} profId={profId} connected={connected} refresh={refresh} />)
        ) : (
          <NeedsConnection />
        )}
      </CardContent>
    </Card>
  );
}
