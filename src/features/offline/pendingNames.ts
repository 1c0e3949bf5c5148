// How the pending screen names a record, its kind, its operation and its state.
import type { IntlShape } from 'react-intl';
import type { PendingRecord } from '../../lib/upload';
import { kindLabel } from './counts';

export function kindName(intl: IntlShape, table: string): string {
  return intl.formatMessage({ id: kindLabel(table), defaultMessage: table });
}

export function stateName(intl: IntlShape, state: string): string {
  return intl.formatMessage({ id: `offline.state.${state}`, defaultMessage: state });
}

export function opName(intl: IntlShape, op: string): string {
  return intl.formatMessage({ id: `offline.op.${op}`, defaultMessage: op });
}

export function recordName(intl: IntlShape, record: PendingRecord): string {
  return record.label?.trim() || intl.formatMessage({ id: 'offline.pending.noName' });
}
