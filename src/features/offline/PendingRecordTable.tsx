// The pending list on wide screens: one table row per record.
import { Card, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import { useIntl } from 'react-intl';
import { RecordActions, shownState, StateChip, type ListProps } from './PendingRecordParts';
import { deletedOnServer, kindName, opName, recordName } from './pendingNames';

export function RecordTable({ records, waiting, busy, onRetry, onDiscard, onExport }: ListProps) {
  const intl = useIntl();
  const say = (id: string) => intl.formatMessage({ id });
  return (
    <TableContainer component={Card} variant="outlined">
      <Table size="small" aria-label={say('offline.pending.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{say('offline.pending.kind')}</TableCell>
            <TableCell>{say('offline.pending.name')}</TableCell>
            <TableCell>{say('offline.pending.operation')}</TableCell>
            <TableCell>{say('offline.pending.state')}</TableCell>
            <TableCell align="right">{say('offline.pending.attempts')}</TableCell>
            <TableCell>{say('offline.pending.lastError')}</TableCell>
            <TableCell>{say('offline.pending.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {records.map((record) => (
            <TableRow
              key={`${record.table}/${record.key}`}
              data-testid="pending-row"
              data-table={record.table}
              data-key={record.key}
              data-state={shownState(record, waiting)}
            >
              <TableCell>{kindName(intl, record.table)}</TableCell>
              <TableCell sx={{ maxWidth: 260, overflowWrap: 'anywhere' }}>{recordName(intl, record)}</TableCell>
              <TableCell>{opName(intl, record.op)}</TableCell>
              <TableCell>
                <StateChip state={shownState(record, waiting)} />
              </TableCell>
              <TableCell align="right">{intl.formatNumber(record.attempts ?? 0)}</TableCell>
              <TableCell
                sx={{ maxWidth: 320, overflowWrap: 'anywhere', color: record.lastError ? 'error.main' : undefined }}
                data-testid="pending-error"
              >
                {deletedOnServer(intl, record) ?? (record.lastError || '—')}
              </TableCell>
              <TableCell>
                <RecordActions
                  record={record}
                  waiting={shownState(record, waiting) === 'waiting'}
                  busy={busy}
                  onRetry={() => onRetry(record)}
                  onDiscard={() => onDiscard(record)}
                  onExport={onExport}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
