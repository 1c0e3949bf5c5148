// The pending list on phones: one card per record.
import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import { useIntl } from 'react-intl';
import { RowActions, shownState, StateChip, type ListProps } from './PendingRecordParts';
import { usePendingNames } from './pendingNames';
import { useSay } from '../../lib/session';

/** Phones: one card per record, every field labelled. */
export function RecordCards(list: ListProps) {
  const { records, waiting } = list;
  const intl = useIntl();
  const say = useSay();
  const { deletedOnServer, kindName, opName, recordName } = usePendingNames();
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
                  {kindName(record.table)} · {opName(record.op)}
                </Typography>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{recordName(record)}</Typography>
              </Box>
              <StateChip state={shownState(record, waiting)} />
            </Box>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {say('offline.pending.attempts')}: {intl.formatNumber(record.attempts ?? 0)}
            </Typography>
            {record.lastError && (
              <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }} data-testid="pending-error">
                {say('offline.pending.lastError')}: {deletedOnServer(record) ?? record.lastError}
              </Typography>
            )}
            <Box sx={{ mt: 1 }}>
              <RowActions record={record} list={list} />
            </Box>
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}
