// `/offlinehp/pending`: the records waiting on this device, the upload of all or one, discard,
// and the export and import of a file. The list is drawn by PendingRecordTable (wide screens) or
// PendingRecordCards (phones) from usePendingRecords; the file part is TransferCard.
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Alert, Button, Stack, Typography, useMediaQuery } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import SyncIcon from '@mui/icons-material/Sync';
import { FullPageSpinner, Page } from '../../components';
import { messageOf } from '../../lib/http';
import { useDb, useDbState } from '../../lib/data';
import { notify, notifyIfQuota } from '../../lib/ui';
import { discardPending, retry, type PendingRecord } from '../../lib/sync';
import { usePendingNames } from './pendingNames';
import { RecordCards } from './PendingRecordCards';
import { RecordTable } from './PendingRecordTable';
import { UploadProgress } from './ReportCards';
import { StoreProblem } from './StoreProblem';
import { TransferCard, useExportPending } from './TransferCard';
import { UnsentDialog } from './UnsentDialog';
import { startUpload, useUploadRun } from './uploadRun';
import { usePendingRecords } from './usePendingRecords';
import { useWaitingForParent } from './waiting';
import { useSay } from '../../lib/session';

/** `/offlinehp/pending`: every local record not on the server yet (ADR-0018). */
export function PendingRecordsPage() {
  const say = useSay();
  const { recordName } = usePendingNames();
  const db = useDb();
  const records = usePendingRecords();
  const storeFailed = useDbState().status === 'error';
  const waiting = useWaitingForParent(db, records);
  const run = useUploadRun();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  // Phones get one card per record, wider screens a table: the same props either way.
  const RecordList = narrow ? RecordCards : RecordTable;

  const [discarding, setDiscarding] = useState<PendingRecord | null>(null);
  const exportPending = useExportPending();
  const onExport = () => void exportPending();

  /** Clears the record's error, then sends it at once (alone). */
  async function retryOne(record: PendingRecord) {
    if (!db) return;
    try {
      await retry(db, record.table, record.key);
      void startUpload(db, [{ table: record.table, key: record.key }]);
    } catch (error) {
      if (!notifyIfQuota(error)) notify.error(say('offline.pending.actionFailedTitle'), messageOf(error));
    }
  }

  async function discard(record: PendingRecord) {
    setDiscarding(null);
    if (!db) return;
    const name = recordName(record);
    try {
      if (await discardPending(db, record.table, record.key))
        notify.info(say('offline.pending.discard'), say('offline.pending.discarded', { name }));
    } catch (error) {
      notify.error(say('offline.pending.actionFailedTitle'), messageOf(error));
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
        <RecordList
          records={records}
          waiting={waiting}
          busy={run.running}
          onRetry={(r) => void retryOne(r)}
          onDiscard={setDiscarding}
          onExport={onExport}
        />
      )}
      <TransferCard busy={run.running} />
      <UnsentDialog
        open={discarding !== null}
        title={say('offline.pending.discardTitle')}
        text={discarding ? say('offline.pending.discardText', { name: recordName(discarding) }) : ''}
        onCancel={() => setDiscarding(null)}
        actions={[{ label: say('offline.pending.discard'), tone: 'danger', onClick: () => discarding && void discard(discarding) }]}
      />
    </Page>
  );
}
