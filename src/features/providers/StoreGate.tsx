// Every provider screen reads through the data layer, which needs the device's store: a spinner
// while it opens, a plain message if it cannot be opened, the screen once it is there. A list
// (`opening`) shows at once: its first request needs only the server.
import type { ReactNode } from 'react';
import { Alert, AlertTitle } from '@mui/material';
import { FullPageSpinner } from '../../components';
import { type DataLayer, useDataLayer, useDbState, useOpeningDataLayer } from '../../lib/data';
import { useSay } from '../../lib/session';

export function StoreGate({ children, opening = false }: { children: (data: DataLayer) => ReactNode; opening?: boolean }) {
  const say = useSay();
  const state = useDbState();
  const open = useDataLayer();
  const early = useOpeningDataLayer();
  const data = opening ? early : open;
  if (state.status === 'error') {
    return (
      <Alert severity="error" data-testid="store-error">
        <AlertTitle>{say('offline.store.failedTitle')}</AlertTitle>
        {say('offline.store.failed', { message: state.error.message })}
      </Alert>
    );
  }
  return data ? children(data) : <FullPageSpinner label={say('common.loading')} />;
}
