import { useId, useState } from 'react';
import { Box, Button, Collapse, Link, Typography } from '@mui/material';
import CloudDownloadIcon from '@mui/icons-material/CloudDownload';
import SaveAsIcon from '@mui/icons-material/SaveAs';
import { messageOf } from '../../lib/http';
import { useDb } from '../../lib/data';
import { notify, notifyIfQuota } from '../../lib/ui';
import { resolveConflict, type PendingRecord } from '../../lib/sync';
import { UnsentDialog } from './UnsentDialog';
import { startUpload } from './uploadRun';
import { useSay } from '../../lib/session';

function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * A conflict (product.md §D6): someone changed the record on the server after this device's edit
 * was based on it. "Keep mine" re-sends the local copy as an update of the server's current
 * version; "Take the server's copy" drops the local edit, after a confirmation.
 */
export function ConflictActions({ record, name, disabled }: { record: PendingRecord; name: string; disabled: boolean }) {
  const say = useSay();
  const db = useDb();
  const [confirmServer, setConfirmServer] = useState(false);
  const [details, setDetails] = useState(false);
  const detailsId = useId();
  const server = record.conflict?.server;

  async function settle(keep: 'mine' | 'server') {
    if (!db) return;
    setConfirmServer(false);
    try {
      const done = await resolveConflict(db, record.table, record.key, keep);
      if (done) notify.success(say('offline.state.conflict'), say('offline.pending.resolved', { name }));
      if (done && keep === 'mine') void startUpload(db, [{ table: record.table, key: record.key }]);
    } catch (error) {
      if (!notifyIfQuota(error)) notify.error(say('offline.pending.actionFailedTitle'), messageOf(error));
    }
  }

  return (
    <Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button
          size="small"
          variant="contained"
          startIcon={<SaveAsIcon />}
          disabled={disabled}
          onClick={() => void settle('mine')}
          aria-label={say('offline.pending.keepMineOf', { name })}
        >
          {say('offline.pending.keepMine')}
        </Button>
        <Button
          size="small"
          variant="outlined"
          color="warning"
          startIcon={<CloudDownloadIcon />}
          disabled={disabled}
          onClick={() => setConfirmServer(true)}
          aria-label={say('offline.pending.takeServerOf', { name })}
        >
          {say('offline.pending.takeServer')}
        </Button>
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5, maxWidth: 360 }}>
        {say('offline.pending.conflictHelp')}{' '}
        {server && Object.keys(server).length > 0 && (
          <Link
            component="button"
            type="button"
            variant="caption"
            onClick={() => setDetails((v) => !v)}
            aria-expanded={details}
            aria-controls={detailsId}
          >
            {say('offline.pending.serverValues')}
          </Link>
        )}
      </Typography>
      {server && (
        <Collapse in={details} id={detailsId}>
          <Box component="dl" sx={{ m: 0, mt: 0.5, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1, fontSize: 12 }}>
            {Object.entries(server).map(([field, value]) => (
              <Box key={field} sx={{ display: 'contents' }}>
                <Box component="dt" sx={{ fontWeight: 600 }}>
                  {field}
                </Box>
                <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                  {shown(value)}
                </Box>
              </Box>
            ))}
          </Box>
        </Collapse>
      )}
      <UnsentDialog
        open={confirmServer}
        title={say('offline.pending.takeServer')}
        text={say('offline.pending.takeServerConfirm', { name })}
        onCancel={() => setConfirmServer(false)}
        actions={[{ label: say('offline.pending.takeServer'), tone: 'danger', onClick: () => void settle('server') }]}
      />
    </Box>
  );
}
