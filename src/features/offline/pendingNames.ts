// How the pending screen names a record, its kind, its operation and its state.
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import type { PendingRecord } from '../../lib/sync';
import { useSay, type Say } from '../../lib/session';
import { kindLabel } from './counts';

export interface PendingNames {
  kindName(table: string): string;
  stateName(state: string): string;
  opName(op: string): string;
  /** What the server told of a record deleted there meanwhile: when, by whom and why, as far as
   * it said (ADR-0023); undefined for any other record. */
  deletedOnServer(record: PendingRecord): string | undefined;
  recordName(record: PendingRecord): string;
}

/** The catalog's text for `id`, or `fallback` when the catalog has none (say shows the id then):
 * a kind, state or operation the catalog does not name yet shows as the engine calls it. */
function sayOr(say: Say, id: string, fallback: string): string {
  const text = say(id);
  return text === id ? fallback : text;
}

export function usePendingNames(): PendingNames {
  const say = useSay();
  const intl = useIntl(); // formatDate: when the server deleted a record, in the user's locale
  return useMemo(
    () => ({
      kindName: (table) => sayOr(say, kindLabel(table), table),
      stateName: (state) => sayOr(say, `offline.state.${state}`, state),
      opName: (op) => sayOr(say, `offline.op.${op}`, op),
      deletedOnServer: (record) => {
        const info = record.deleted;
        if (!info) return undefined;
        const when = intl.formatDate(info.at, { dateStyle: 'medium', timeStyle: 'short' });
        const said = info.by ? say('offline.pending.deletedBy', { when, by: info.by }) : say('offline.pending.deletedAt', { when });
        return info.reason ? `${said} ${say('offline.pending.deletedReason', { reason: info.reason })}` : said;
      },
      recordName: (record) => record.label?.trim() || say('offline.pending.noName'),
    }),
    [say, intl],
  );
}
