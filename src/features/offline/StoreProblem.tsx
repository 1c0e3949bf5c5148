import { Alert, AlertTitle } from '@mui/material';
import { useIntl } from 'react-intl';
import { useDbState } from '../../lib/data';

/** Says so plainly when the local store could not be opened: nothing can be kept offline. */
export function StoreProblem() {
  const intl = useIntl();
  const state = useDbState();
  if (state.status !== 'error') return null;
  return (
    <Alert severity="error" data-testid="store-error">
      <AlertTitle>{intl.formatMessage({ id: 'offline.store.failedTitle' })}</AlertTitle>
      {intl.formatMessage({ id: 'offline.store.failed' }, { message: state.error.message })}
    </Alert>
  );
}
