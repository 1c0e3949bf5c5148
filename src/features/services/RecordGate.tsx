// What a record page shows before its record is there: a spinner, "not found", or the failure
// with a retry.
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { Alert, Box, Button } from '@mui/material';
import { useIntl } from 'react-intl';
import type { EntityShape } from '../../../schemas/define';
import { FullPageSpinner } from '../../components';
import { messageOf } from '../../components/entity';
import type { Doc } from '../../lib/datalayer/types';
import type { RecordState } from './useRecord';

interface RecordGateProps<E extends EntityShape> {
  record: RecordState<E>;
  notFoundId: string;
  backTo: string;
  children: (doc: Doc<E>) => ReactNode;
}

export function RecordGate<E extends EntityShape>({ record, notFoundId, backTo, children }: RecordGateProps<E>) {
  const intl = useIntl();
  const say = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  if (record.status === 'ready') return children(record.doc);
  if (record.status === 'loading') return <FullPageSpinner label={say('common.loading')} />;
  const back = (
    <Button component={RouterLink} to={backTo} color="inherit" size="small">
      {say('services.page.back')}
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
          {say('services.page.loadFailed', { message: messageOf(record.error) })}
        </Alert>
      )}
    </Box>
  );
}
