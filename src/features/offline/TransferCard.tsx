// The pending screen's export and import of the records waiting on this device (a file).
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Alert, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import FileUploadIcon from '@mui/icons-material/FileUpload';
import { useSessionUser } from '../../components';
import { messageOf } from '../../lib/http';
import { useDb } from '../../lib/data';
import { notify, notifyIfQuota } from '../../lib/ui';
import { downloadPending, importFile } from './transfer';
import { useSay } from '../../lib/session';

/** Saves the pending records to a file, told by a toast; answers the text shown (or null). */
export function useExportPending(): () => Promise<string | null> {
  const say = useSay();
  const db = useDb();
  const user = useSessionUser();
  return async () => {
    if (!db || !user) return null;
    try {
      const { file, count } = await downloadPending(db, user);
      const text = say('offline.pending.exported', { count, file });
      notify.success(say('offline.pending.export'), text);
      return text;
    } catch (error) {
      if (!notifyIfQuota(error)) notify.error(say('offline.pending.exportFailedTitle'), messageOf(error));
      return null;
    }
  };
}

/** Export and import of pending records, with the counts shown (ADR-0018). */
export function TransferCard({ busy }: { busy: boolean }) {
  const say = useSay();
  const db = useDb();
  const user = useSessionUser();
  const input = useRef<HTMLInputElement>(null);
  const [result, setResult] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const titleId = useId();
  const exportPending = useExportPending();

  async function doExport() {
    setWorking(true);
    try {
      const text = await exportPending();
      if (text) setResult(text);
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
        const text = say('offline.pending.importFailed', { message: messageOf(error) });
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
          <Button
            variant="outlined"
            startIcon={<FileUploadIcon />}
            onClick={() => input.current?.click()}
            disabled={!db || working || busy}
          >
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
