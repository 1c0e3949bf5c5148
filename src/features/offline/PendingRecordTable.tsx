// The pending list on wide screens: one table row per record.
import { Card, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import { useIntl } from 'react-intl';
import { RowActions, shownState, StateChip, type ListProps } from './PendingRecordParts';
import { usePendingNames } from './pendingNames';
import { useSay } from '../../lib/session';

export function RecordTable(list: ListProps) {
  const { records, waiting } = list;
  const intl = useIntl();
  const say = useSay();
  const { deletedOnServer, kindName, opName, recordName } = usePendingNames();
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
              <TableCell>{kindName(record.table)}</TableCell>
              <TableCell sx={{ maxWidth: 260, overflowWrap: 'anywhere' }}>{recordName(record)}</TableCell>
              <TableCell>{opName(record.op)}</TableCell>
              <TableCell>
                <StateChip state={shownState(record, waiting)} />
              </TableCell>
              <TableCell align="right">{intl.formatNumber(record.attempts ?? 0)}</TableCell>
              <TableCell
                sx={{ maxWidth: 320, overflowWrap: 'anywhere', color: record.lastError ? 'error.main' : undefined }}
                data-testid="pending-error"
              >
                {deletedOnServer(record) ?? (record.lastError || '—')}
              </TableCell>
              <TableCell>
                <RowActions record={record} list={list} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
