// How the pending screen names a record, its kind, its operation and its state.
import type { IntlShape } from 'react-intl';
import type { PendingRecord } from '../../lib/sync';
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

/** What the server told of a record deleted there meanwhile: when, by whom and why, as far as
 * it said (ADR-0023); undefined for any other record. */
export function deletedOnServer(intl: IntlShape, record: PendingRecord): string | undefined {
  const info = record.deleted;
  if (!info) return undefined;
  const when = intl.formatDate(info.at, { dateStyle: 'medium', timeStyle: 'short' });
  const said = info.by
    ? intl.formatMessage({ id: 'offline.pending.deletedBy' }, { when, by: info.by })
    : intl.formatMessage({ id: 'offline.pending.deletedAt' }, { when });
  return info.reason ? `${said} ${intl.formatMessage({ id: 'offline.pending.deletedReason' }, { reason: info.reason })}` : said;
}

export function recordName(intl: IntlShape, record: PendingRecord): string {
  return record.label?.trim() || intl.formatMessage({ id: 'offline.pending.noName' });
}
