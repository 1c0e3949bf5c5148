// The network as a field worker needs to see it (ADR-0023): whether the device is offline,
// shown at all times in the top bar, and an offer to upload when the network comes back while
// records wait on the device.
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Button, Chip } from '@mui/material';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import { closeSnackbar, enqueueSnackbar } from 'notistack';
import { useDb } from '../../lib/data';
import { useNetworkOnline, useSay } from '../../lib/session';
import { countPending } from '../../lib/sync';
import { usePendingTotal } from './counts';
import { NO_CONNECTION_PROMPT, startUpload, useUploadRun } from './uploadRun';
import { dismiss } from '../../lib/ui';

/** A small "No network" chip for the top bar, visible on phones too; nothing while online. */
export function NetworkIndicator() {
  const say = useSay();
  const online = useNetworkOnline();
  if (online) return null;
  return (
    <Chip
      role="status"
      icon={<CloudOffIcon />}
      label={say('offline.network.offline')}
      size="small"
      data-testid="network-offline"
      sx={{ bgcolor: '#fff', color: '#b71c1c', fontWeight: 700, '& .MuiChip-icon': { color: '#b71c1c' }, flexShrink: 0 }}
    />
  );
}

const OFFER_KEY = 'icrs-upload-offer';

/** When the network returns and records wait on this device, a toast offers to upload them.
 * The offer goes once its work is done or under way: an upload started anywhere else (the
 * offline home's button, another tab) or nothing left to send. */
export function UploadOnReconnect() {
  const say = useSay();
  const db = useDb();
  const navigate = useNavigate();
  const waitingNow = usePendingTotal();
  const uploading = useUploadRun().running;
  useEffect(() => {
    if (waitingNow === 0 || uploading) closeSnackbar(OFFER_KEY);
  }, [waitingNow, uploading]);
  useEffect(() => {
    if (!db) return;
    const offer = async () => {
      const waiting = await countPending(db);
      if (waiting === 0) return;
      // Not a `toast` (those close by themselves): it stays until answered or the network drops.
      const message = <span data-testid="upload-offer">{say('offline.network.back', { count: waiting })}</span>;
      enqueueSnackbar(message, {
        key: OFFER_KEY,
        preventDuplicate: true,
        variant: 'info',
        persist: true,
        action: (key) => (
          <>
            <Button
              color="inherit"
              size="small"
              sx={{ fontWeight: 700 }}
              onClick={() => {
                closeSnackbar(key);
                void navigate('/offlinehp');
                void startUpload(db);
              }}
            >
              {say('offline.network.uploadNow')}
            </Button>
            <Button color="inherit" size="small" onClick={() => closeSnackbar(key)}>
              {say('offline.network.later')}
            </Button>
          </>
        ),
      });
    };
    const onOnline = () => {
      dismiss(NO_CONNECTION_PROMPT); // its news is stale: the network is back
      void offer().catch((error: unknown) => console.warn('Pending records not counted:', error));
    };
    const onOffline = () => closeSnackbar(OFFER_KEY);
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    return () => {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
    };
  }, [db, say, navigate]);
  return null;
}
