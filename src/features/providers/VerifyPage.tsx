// `/serviceproviders/verify`: the services waiting for verification (GET /spDetail/spending),
// with their provider, category, territory and date; approve, or reject with a comment. Each
// decision takes the service off the list and refreshes the sidebar badges. Only the server
// can record a decision, so offline the screen says so instead of failing.
import { useState } from 'react';
import { Alert, AlertTitle, Box, IconButton, Tooltip } from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircleOutlined';
import CancelIcon from '@mui/icons-material/CancelOutlined';
import { service } from '../../../schemas/index';
import { Page, useSessionUser } from '../../components';
import { EntityGrid, type CustomColumn, type GridRow } from '../../components/entity';
import { api } from '../../lib/http';
import type { DataLayer, ListQuery } from '../../lib/data';
import { useSay } from '../../lib/session';
import { withProviderNames } from './providerNames';
import { RejectDialog } from './RejectDialog';
import { ReviewDialog } from './ReviewDialog';
import { StoreGate } from './StoreGate';
import { useConnected } from '../../components/useConnected';
import { useVerify, type Target } from './useVerify';
import { listPending } from './verifyApi';

const COLUMNS = ['name', 'providerName', 'category', 'territory', 'createdAt', 'why', 'actions'];

const targetOf = (row: GridRow): Target => ({ id: String(row.sp_Detail_Id), name: String(row.name) });

/** Why the user may not decide on this service (ADR-0026: nobody verifies a service they
 * created or last changed; the server refuses it too), or why it is pending again; null: nothing to say. */
export function verifyNote(
  row: GridRow,
  userId: string | undefined,
): 'providers.verify.ownService' | 'providers.verify.changedSinceVerified' | null {
  if (userId && (row.createdBy === userId || row.updatedBy === userId)) return 'providers.verify.ownService';
  if (row.verifiedAt) return 'providers.verify.changedSinceVerified';
  return null;
}

function Decide({
  row,
  busy,
  own,
  onApprove,
  onReject,
}: {
  row: GridRow;
  busy: boolean;
  own: boolean;
  onApprove: () => void;
  onReject: () => void;
}) {
  const say = useSay();
  const name = String(row.name);
  return (
    <Box sx={{ display: 'flex', gap: 0.5 }}>
      <Tooltip title={say(own ? 'providers.verify.ownService' : 'providers.verify.approve')}>
        <span>
          <IconButton color="success" onClick={onApprove} disabled={busy || own} aria-label={say('providers.verify.approveOf', { name })}>
            <CheckCircleIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={say(own ? 'providers.verify.ownService' : 'providers.verify.reject')}>
        <span>
          <IconButton color="error" onClick={onReject} disabled={busy || own} aria-label={say('providers.verify.rejectOf', { name })}>
            <CancelIcon />
          </IconButton>
        </span>
      </Tooltip>
    </Box>
  );
}

function PendingServices({ data }: { data: DataLayer }) {
  const say = useSay();
  const me = useSessionUser()?.userId;
  const [version, setVersion] = useState(0);
  const [review, setReview] = useState<GridRow | null>(null);
  const [rejecting, setRejecting] = useState<Target | null>(null);
  const verify = useVerify(data, () => setVersion((v) => v + 1));

  const load = async (query: ListQuery) => {
    const page = await listPending(api, query);
    return { ...page, rows: await withProviderNames(data, page.rows) };
  };
  const approve = (row: GridRow) => {
    setReview(null);
    void verify.approve(targetOf(row));
  };
  const startReject = (row: GridRow) => {
    setReview(null);
    setRejecting(targetOf(row));
  };

  const custom: Record<string, CustomColumn> = {
    providerName: {
      header: say('providers.verify.provider'),
      render: (row) => String(row.providerName ?? ''),
      text: (row) => String(row.providerName ?? ''),
    },
    why: {
      header: say('providers.verify.why'),
      render: (row) => {
        const note = verifyNote(row, me);
        return note ? <span data-testid="verify-note">{say(note)}</span> : '';
      },
      text: (row) => {
        const note = verifyNote(row, me);
        return note ? say(note) : '';
      },
    },
    actions: {
      header: say('providers.verify.decision'),
      actions: true,
      width: 112,
      render: (row) => (
        <Decide
          row={row}
          busy={verify.busy.has(String(row.sp_Detail_Id))}
          own={verifyNote(row, me) === 'providers.verify.ownService'}
          onApprove={() => approve(row)}
          onReject={() => startReject(row)}
        />
      ),
    },
  };

  return (
    <>
      <EntityGrid
        entity={service}
        load={load}
        columns={COLUMNS}
        compactColumns={['name', 'actions']}
        customColumns={custom}
        exportable={false}
        filters={['category', 'serviceType', 'territory']}
        onRowClick={setReview}
        refreshKey={version}
        ariaLabel={say('screens.verify')}
        emptyText={say('providers.verify.empty')}
      />
      <ReviewDialog
        row={review}
        note={review ? verifyNote(review, me) : null}
        busy={review !== null && verify.busy.has(String(review.sp_Detail_Id))}
        onClose={() => setReview(null)}
        onApprove={() => review && approve(review)}
        onReject={() => review && startReject(review)}
      />
      <RejectDialog
        name={rejecting?.name ?? null}
        onCancel={() => setRejecting(null)}
        onConfirm={async (comment) => {
          if (!rejecting) return;
          await verify.reject(rejecting, comment);
          setRejecting(null);
        }}
      />
    </>
  );
}

export function VerifyPage() {
  const say = useSay();
  const connected = useConnected();
  return (
    <Page title={say('screens.verify')}>
      {connected ? (
        <StoreGate>{(data) => <PendingServices data={data} />}</StoreGate>
      ) : (
        <Alert severity="warning" data-testid="verify-offline">
          <AlertTitle>{say('providers.verify.offlineTitle')}</AlertTitle>
          {say('providers.verify.offline')}
        </Alert>
      )}
    </Page>
  );
}
