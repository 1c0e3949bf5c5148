import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
} from '@mui/material';
import type { Theme } from '@mui/material/styles';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import FileUploadIcon from '@mui/icons-material/FileUpload';
import ReplayIcon from '@mui/icons-material/Replay';
import SyncIcon from '@mui/icons-material/Sync';
import { useIntl, type IntlShape } from 'react-intl';
import { FullPageSpinner, Page, useSessionUser } from '../../components';
import { errorMessage } from '../../lib/api';
import { useDb, useDbState } from '../../lib/db/DbProvider';
import { notify } from '../../lib/notify';
import { ConflictActions } from './ConflictActions';
import { kindLabel } from './counts';
import { discardPending, pending$, retry, type PendingRecord } from '../../lib/upload';
import { notifyIfQuota } from './quota';
import { UploadProgress } from './ReportCards';
import { StoreProblem } from './StoreProblem';
import { downloadPending, importFile } from './transfer';
import { UnsentDialog } from './UnsentDialog';
import { startUpload, useUploadRun } from './uploadRun';
import { refOf, useWaitingForParent } from './waiting';

type ChipColor = 'default' | 'warning' | 'error' | 'info' | 'secondary';

const STATE_COLORS: Record<string, ChipColor> = {
  pending: 'info',
  failed: 'error',
  conflict: 'warning',
  waiting: 'secondary',
};

function kindName(intl: IntlShape, table: string): string {
  return intl.formatMessage({ id: kindLabel(table), defaultMessage: table });
}

function stateName(intl: IntlShape, state: string): string {
  return intl.formatMessage({ id: `offline.state.${state}`, defaultMessage: state });
}

function opName(intl: IntlShape, op: string): string {
  return intl.formatMessage({ id: `offline.op.${op}`, defaultMessage: op });
}

function recordName(intl: IntlShape, record: PendingRecord): string {
  return record.label?.trim() || intl.formatMessage({ id: 'offline.pending.noName' });
}

/** Live list of the pending records; null until the first answer. */
function usePendingRecords(): PendingRecord[] | null {
  const db = useDb();
  const [records, setRecords] = useState<PendingRecord[] | null>(null);
  useEffect(() => {
    if (!db) return;
    const subscription = pending$(db).subscribe({
      next: (list: PendingRecord[]) => setRecords(list),
      error: (error: unknown) => {
        console.error('Pending records unavailable:', error);
        setRecords([]);
      },
    });
    return () => subscription.unsubscribe();
  }, [db]);
  return records;
}

interface ActionProps {
  record: PendingRecord;
  /** Its parent is pending too: it goes after it, so retrying it alone is pointless. */
  waiting: boolean;
  busy: boolean;
  onRetry: () => void;
  onDiscard: () => void;
}

function RecordActions({ record, waiting, onRetry, onDiscard, busy }: ActionProps) {
  const intl = useIntl();
  const name = recordName(intl, record);
  if (record.state === 'conflict') return <ConflictActions record={record} name={name} disabled={busy} />;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {!waiting && (
        <Button
          size="small"
          variant="outlined"
          startIcon={<ReplayIcon />}
          onClick={onRetry}
          disabled={busy}
          aria-label={intl.formatMessage({ id: 'offline.pending.retryOf' }, { name })}
        >
          {intl.formatMessage({ id: 'offline.pending.retry' })}
        </Button>
      )}
      <Button
        size="small"
        color="error"
        startIcon={<DeleteOutlineIcon />}
        onClick={onDiscard}
        disabled={busy}
        aria-label={intl.formatMessage({ id: 'offline.pending.discardOf' }, { name })}
      >
        {intl.formatMessage({ id: 'offline.pending.discard' })}
      </Button>
    </Stack>
  );
}

function StateChip({ state }: { state: string }) {
  const intl = useIntl();
  return <Chip size="small" label={stateName(intl, state)} color={STATE_COLORS[state] ?? 'default'} variant={state === 'pending' ? 'outlined' : 'filled'} />;
}

/** The state to show: the engine's, or "waiting for parent" when its parent is pending too. */
function shownState(record: PendingRecord, waiting: ReadonlySet<string>): string {
  return record.state !== 'conflict' && waiting.has(refOf(record.table, record.key)) ? 'waiting' : record.state;
}

interface ListProps {
  records: PendingRecord[];
  waiting: ReadonlySet<string>;
  busy: boolean;
  onRetry: (record: PendingRecord) => void;
  onDiscard: (record: PendingRecord) => void;
}

function RecordTable({ records, waiting, busy, onRetry, onDiscard }: ListProps) {
  const intl = useIntl();
  const say = (id: string) => intl.formatMessage({ id });
  return (
    <TableContainer component={Card} variant="outlined">
      <Table size="small" aria-label={say('offline.pending.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{say('offline.pending.kind')}</TableCell>
            <TableCell>{say('offline.pending.name')}</TableCell>
            <TableCell>{say('offline.pending.operation')}</TableCell>
            <TableCell>{say('offline.pending.state')}</TableCell>
            <TableCell align="right">{say('offline.pending.attempts')}</TableCell>
            <TableCell>{say('offline.pending.lastError')}</TableCell>
            <TableCell>{say('offline.pending.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {records.map((record) => (
            <TableRow key={`${record.table}/${record.key}`} data-testid="pending-row" data-table={record.table} data-key={record.key} data-state={shownState(record, waiting)}>
              <TableCell>{kindName(intl, record.table)}</TableCell>
              <TableCell sx={{ maxWidth: 260, overflowWrap: 'anywhere' }}>{recordName(intl, record)}</TableCell>
              <TableCell>{opName(intl, record.op)}</TableCell>
              <TableCell>
                <StateChip state={shownState(record, waiting)} />
              </TableCell>
              <TableCell align="right">{intl.formatNumber(record.attempts ?? 0)}</TableCell>
              <TableCell sx={{ maxWidth: 320, overflowWrap: 'anywhere', color: record.lastError ? 'error.main' : undefined }}>
                {record.lastError || '—'}
              </TableCell>
              <TableCell>
                <RecordActions record={record} waiting={shownState(record, waiting) === 'waiting'} busy={busy} onRetry={() => onRetry(record)} onDiscard={() => onDiscard(record)} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** Phones: one card per record, every field labelled. */
function RecordCards({ records, waiting, busy, onRetry, onDiscard }: ListProps) {
  const intl = useIntl();
  const say = (id: string) => intl.formatMessage({ id });
  return (
    <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={say('offline.pending.title')}>
      {records.map((record) => (
        <Card
          component="li"
          variant="outlined"
          key={`${record.table}/${record.key}`}
          data-testid="pending-row"
          data-table={record.table}
          data-key={record.key}
          data-state={shownState(record, waiting)}
        >
          <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'flex-start' }}>
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="caption" color="text.secondary">
                  {kindName(intl, record.table)} · {opName(intl, record.op)}
                </Typography>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{recordName(intl, record)}</Typography>
              </Box>
              <StateChip state={shownState(record, waiting)} />
            </Box>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {say('offline.pending.attempts')}: {intl.formatNumber(record.attempts ?? 0)}
            </Typography>
            {record.lastError && (
              <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
                {say('offline.pending.lastError')}: {record.lastError}
              </Typography>
            )}
            <Box sx={{ mt: 1 }}>
              <RecordActions record={record} waiting={shownState(record, waiting) === 'waiting'} busy={busy} onRetry={() => onRetry(record)} onDiscard={() => onDiscard(record)} />
            </Box>
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}

/** Export and import of pending records, with the counts shown (issue 4 §3). */
function TransferCard({ busy }: { busy: boolean }) {
  const intl = useIntl();
  const say = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const db = useDb();
  const user = useSessionUser();
  const input = useRef<HTMLInputElement>(null);
  const [result, setResult] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const titleId = useId();

  async function doExport() {
    if (!db || !user) return;
    setWorking(true);
    try {
      const { file, count } = await downloadPending(db, user);
      const text = say('offline.pending.exported', { count, file });
      setResult(text);
      notify.success(say('offline.pending.export'), text);
    } catch (error) {
      if (!notifyIfQuota(error)) notify.error(say('offline.pending.exportFailedTitle'), errorMessage(error));
    } finally {
      setWorking(false);
    }
  }

  async function doImport(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file can be chosen again
    if (!db || !file || !user) return;
    setWorking(true);
    try {
      const { imported, skipped } = await importFile(db, file, user.userId);
      const text = say('offline.pending.imported', { imported, skipped });
      setResult(text);
      notify.success(say('offline.pending.import'), text);
    } catch (error) {
      if (!notifyIfQuota(error)) {
        const text = say('offline.pending.importFailed', { message: errorMessage(error) });
        setResult(text);
        notify.error(say('offline.pending.importFailedTitle'), text);
      }
    } finally {
      setWorking(false);
    }
  }

  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId}>
      <CardContent>
        <Typography id={titleId} component="h2" variant="h6">
          {say('offline.pending.transferTitle')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {say('offline.pending.transferHelp')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} useFlexGap>
          <Button variant="outlined" startIcon={<FileDownloadIcon />} onClick={() => void doExport()} disabled={!db || working || busy}>
            {say('offline.pending.export')}
          </Button>
          <Button variant="outlined" startIcon={<FileUploadIcon />} onClick={() => input.current?.click()} disabled={!db || working || busy}>
            {working ? say('offline.pending.importing') : say('offline.pending.import')}
          </Button>
          <input
            ref={input}
            type="file"
            accept="application/json,.json"
            hidden
            data-testid="import-input"
            aria-label={say('offline.pending.import')}
            onChange={(event) => void doImport(event)}
          />
        </Stack>
        {result && (
          <Alert severity="info" sx={{ mt: 1.5 }} data-testid="transfer-result" role="status">
            {result}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}

/** `/offlinehp/pending`: every local record not on the server yet (issue 4 §3). */
export function PendingRecordsPage() {
  const intl = useIntl();
  const say = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const db = useDb();
  const records = usePendingRecords();
  const storeFailed = useDbState().status === 'error';
  const waiting = useWaitingForParent(db, records);
  const run = useUploadRun();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });

  const [discarding, setDiscarding] = useState<PendingRecord | null>(null);

  /** Clears the record's error, then sends it at once (alone). */
  async function retryOne(record: PendingRecord) {
    if (!db) return;
    try {
      await retry(db, record.table, record.key);
      void startUpload(db, [{ table: record.table, key: record.key }]);
    } catch (error) {
      if (!notifyIfQuota(error)) notify.error(say('offline.pending.actionFailedTitle'), errorMessage(error));
    }
  }

  async function discard(record: PendingRecord) {
    setDiscarding(null);
    if (!db) return;
    const name = recordName(intl, record);
    try {
      if (await discardPending(db, record.table, record.key)) notify.info(say('offline.pending.discard'), say('offline.pending.discarded', { name }));
    } catch (error) {
      notify.error(say('offline.pending.actionFailedTitle'), errorMessage(error));
    }
  }

  const back = (
    <Button component={RouterLink} to="/offlinehp" startIcon={<ArrowBackIcon />}>
      {say('offline.backToOfflineHome')}
    </Button>
  );

  return (
    <Page title={say('offline.pending.title')} actions={back}>
      <StoreProblem />
      <Typography color="text.secondary">{say('offline.pending.intro')}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} useFlexGap sx={{ alignItems: { sm: 'center' } }}>
        <Button
          variant="contained"
          startIcon={<SyncIcon />}
          onClick={() => db && void startUpload(db)}
          disabled={!db || run.running || !records || records.length === 0}
        >
          {run.running ? say('offline.uploading') : say('offline.pending.retryAll')}
        </Button>
        <Typography data-testid="pending-total" aria-live="polite">
          {records ? say('offline.total', { count: records.length }) : ''}
        </Typography>
      </Stack>
      {(run.running || run.report) && <UploadProgress report={run.report} running={run.running} />}
      {records === null && !storeFailed && <FullPageSpinner label={say('offline.pending.loading')} />}
      {records !== null && records.length === 0 && (
        <Alert severity="success" data-testid="pending-empty">
          {say('offline.pending.empty')}
        </Alert>
      )}
      {records !== null && records.length > 0 && (
        narrow ? (
          <RecordCards records={records} waiting={waiting} busy={run.running} onRetry={(r) => void retryOne(r)} onDiscard={setDiscarding} />
        ) : (
          <RecordTable records={records} waiting={waiting} busy={run.running} onRetry={(r) => void retryOne(r)} onDiscard={setDiscarding} />
        )
      )}
      <TransferCard busy={run.running} />
      <UnsentDialog
        open={discarding !== null}
        title={say('offline.pending.discardTitle')}
        text={discarding ? say('offline.pending.discardText', { name: recordName(intl, discarding) }) : ''}
        onCancel={() => setDiscarding(null)}
        actions={[{ label: say('offline.pending.discard'), tone: 'danger', onClick: () => discarding && void discard(discarding) }]}
      />
    </Page>
  );
}
