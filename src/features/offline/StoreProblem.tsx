import { Alert, AlertTitle } from '@mui/material';
import { useDbState } from '../../lib/data';
import { useSay } from '../../lib/session';

/** Says so plainly when the local store could not be opened: nothing can be kept offline. */
export function StoreProblem() {
  const say = useSay();
  const state = useDbState();
  if (state.status !== 'error') return null;
  return (
    <Alert severity="error" data-testid="store-error">
      <AlertTitle>{say('offline.store.failedTitle')}</AlertTitle>
      {say('offline.store.failed', { message: state.error.message })}
    </Alert>
  );
}
