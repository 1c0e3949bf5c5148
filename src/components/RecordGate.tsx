// What a record page shows before its record is there: a spinner, "not found", or the failure
// with a retry.
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { Alert, Box, Button } from '@mui/material';
import type { EntityShape } from '../../schemas/define';
import { FullPageSpinner } from './FullPageSpinner';
import { messageOf } from '../lib/http';
import type { Doc, RecordState } from '../lib/data';
import { useSay } from '../lib/session';

interface RecordGateProps<E extends EntityShape> {
  record: RecordState<E>;
  notFoundId: string;
  backTo: string;
  /** Label of the way back, and the failure text (with {message}). */
  backLabelId: string;
  failedId: string;
  children: (doc: Doc<E>) => ReactNode;
}

export function RecordGate<E extends EntityShape>({ record, notFoundId, backTo, backLabelId, failedId, children }: RecordGateProps<E>) {
  const say = useSay();
  if (record.status === 'ready') return children(record.doc);
  if (record.status === 'loading') return <FullPageSpinner label={say('common.loading')} />;
  const back = (
    <Button component={RouterLink} to={backTo} color="inherit" size="small">
      {say(backLabelId)}
    </Button>
  );
  return (
    <Box sx={{ py: 2 }}>
      {record.status === 'missing' ? (
        <Alert severity="warning" action={back} data-testid="record-missing">
          {say(notFoundId)}
        </Alert>
      ) : (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={record.retry}>
              {say('entityGrid.retry')}
            </Button>
          }
        >
          {say(failedId, { message: messageOf(record.error) })}
        </Alert>
      )}
    </Box>
  );
}
