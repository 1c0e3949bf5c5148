// What both renderings of the pending list show for a record: its state chip and its actions.
import { Button, Chip, Stack } from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import ReplayIcon from '@mui/icons-material/Replay';
import type { PendingRecord } from '../../lib/sync';
import { ConflictActions } from './ConflictActions';
import { usePendingNames } from './pendingNames';
import { refOf } from './waiting';
import { useSay } from '../../lib/session';

type ChipColor = 'default' | 'warning' | 'error' | 'info' | 'secondary';

const STATE_COLORS: Record<string, ChipColor> = {
  pending: 'info',
  failed: 'error',
  conflict: 'warning',
  waiting: 'secondary',
  deleted: 'error',
  erased: 'error',
};

interface ActionProps {
  record: PendingRecord;
  /** Its parent is pending too: it goes after it, so retrying it alone is pointless. */
  waiting: boolean;
  busy: boolean;
  onRetry: () => void;
  onDiscard: () => void;
  /** Saves the pending records to a file (a record deleted on the server: keep a copy first). */
  onExport: () => void;
}

function RecordActions({ record, waiting, onRetry, onDiscard, onExport, busy }: ActionProps) {
  const say = useSay();
  const { recordName } = usePendingNames();
  const name = recordName(record);
  if (record.state === 'conflict') return <ConflictActions record={record} name={name} disabled={busy} />;
  // Deleted on the server: a retry can never succeed (ADR-0023); keep a copy, then discard.
  const deleted = record.state === 'deleted';
  // Its client erased on the server: discard only, no retry and no copy, so that the client's
  // data never reaches the server again (docs/security.md "Erased means gone").
  const erased = record.state === 'erased';
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {deleted && (
        <Button
          size="small"
          variant="outlined"
          startIcon={<FileDownloadIcon />}
          onClick={onExport}
          disabled={busy}
          aria-label={say('offline.pending.exportOf', { name })}
        >
          {say('offline.pending.exportOne')}
        </Button>
      )}
      {!waiting && !deleted && !erased && (
        <Button
          size="small"
          variant="outlined"
          startIcon={<ReplayIcon />}
          onClick={onRetry}
          disabled={busy}
          aria-label={say('offline.pending.retryOf', { name })}
        >
          {say('offline.pending.retry')}
        </Button>
      )}
      <Button
        size="small"
        color="error"
        startIcon={<DeleteOutlineIcon />}
        onClick={onDiscard}
        disabled={busy}
        aria-label={say('offline.pending.discardOf', { name })}
      >
        {say('offline.pending.discard')}
      </Button>
    </Stack>
  );
}

/** A record's actions as both renderings of the list show them, from the list's props. */
export function RowActions({ record, list }: { record: PendingRecord; list: ListProps }) {
  return (
    <RecordActions
      record={record}
      waiting={shownState(record, list.waiting) === 'waiting'}
      busy={list.busy}
      onRetry={() => list.onRetry(record)}
      onDiscard={() => list.onDiscard(record)}
      onExport={list.onExport}
    />
  );
}

export function StateChip({ state }: { state: string }) {
  const { stateName } = usePendingNames();
  return (
    <Chip
      size="small"
      label={stateName(state)}
      color={STATE_COLORS[state] ?? 'default'}
      variant={state === 'pending' ? 'outlined' : 'filled'}
    />
  );
}

/** The state to show: the engine's, or "waiting for parent" when its parent is pending too. */
export function shownState(record: PendingRecord, waiting: ReadonlySet<string>): string {
  return record.state !== 'conflict' && record.state !== 'erased' && waiting.has(refOf(record.table, record.key))
    ? 'waiting'
    : record.state;
}

export interface ListProps {
  records: PendingRecord[];
  waiting: ReadonlySet<string>;
  busy: boolean;
  onRetry: (record: PendingRecord) => void;
  onDiscard: (record: PendingRecord) => void;
  onExport: () => void;
}
