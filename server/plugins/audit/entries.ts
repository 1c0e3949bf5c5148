// Audit entries that no row change writes (sign-in failures, sign-outs, downloads, exports,
// erasures), and the reading of the log: a record's history and the audit screen's pages. A
// client's values are read back from `audit_values` (gone after the client's erasure).
import type { Queryable, Row } from '../../db/index';
import { boundedCount, Conditions } from '../../lib/records';
import type { AuditAction } from './actions';
import { currentActor, type AuditActor } from './context';
import { AUDIT_TABLE, AUDIT_VALUES_TABLE } from './triggers';

export interface ExplicitEntry {
  action: AuditAction;
  entity?: string;
  recordId?: string;
  /** The client the entry concerns: its note goes with the client's values. */
  clientId?: string;
  /** The organisation the entry belongs to (default: the actor's). */
  location?: number | null;
  note?: string | null;
  fields?: string[];
  /** Default: the request's user. */
  actor?: Partial<AuditActor> & { userName: string };
}

/** Writes one entry (in `db`'s transaction when it is one). */
export async function writeAudit(db: Queryable, entry: ExplicitEntry): Promise<void> {
  const actor = entry.actor ?? currentActor();
  const client = entry.clientId ?? null;
  const note = entry.note ?? null;
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO "${AUDIT_TABLE}" ("deviceAt", "userId", "userName", "role", "userLocation", "location", "action", "entity", "recordId", "clientId", "fields", "note")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING "id"::text AS id`,
    [
      actor?.deviceAt ?? null,
      actor?.userId ?? null,
      actor?.userName ?? 'system',
      actor?.role ?? null,
      actor?.location ?? null,
      entry.location === undefined ? (actor?.location ?? null) : entry.location,
      entry.action,
      entry.entity ?? null,
      entry.recordId ?? null,
      client,
      JSON.stringify(entry.fields ?? []),
      client ? null : note,
    ],
  );
  if (client && note !== null) {
    await db.query(`INSERT INTO "${AUDIT_VALUES_TABLE}" ("entryId", "clientId", "note") VALUES ($1, $2, $3)`, [row?.id, client, note]);
  }
}

/** The columns of an entry as the API answers it: a client's values joined back. */
const ENTRY_COLUMNS = `a."id"::text AS "id", a."at", a."deviceAt", a."userId", a."userName", a."role", a."userLocation", a."location",
  a."action", a."entity", a."recordId", a."clientId", a."fields", coalesce(a."changes", v."changes") AS "changes", coalesce(a."note", v."note") AS "note"`;
const FROM = `FROM "${AUDIT_TABLE}" a LEFT JOIN "${AUDIT_VALUES_TABLE}" v ON v."entryId" = a."id"`;

export interface EntryPage {
  rows: Row[];
  total: number;
  totalIsLowerBound: boolean;
  page: number;
  pageSize: number;
}

/** One page of the entries `where` keeps (on the alias `a`), newest first; the count is bounded
 * as every list's (../../lib/records/count.ts). */
export async function entryPage(db: Queryable, where: Conditions, page: number, pageSize: number): Promise<EntryPage> {
  const skipped = (page - 1) * pageSize;
  const counted = await boundedCount(db, `FROM "${AUDIT_TABLE}" a ${where.sql}`, where.params, skipped + pageSize);
  const limit = where.param(pageSize);
  const offset = where.param(skipped);
  const rows = await db.query(
    `SELECT ${ENTRY_COLUMNS} ${FROM} ${where.sql} ORDER BY a."id" DESC LIMIT ${limit} OFFSET ${offset}`,
    where.params,
  );
  return { rows, ...counted, page, pageSize };
}

/** Every entry `where` keeps, newest first, up to `limit` (the CSV export). */
export function allEntries(db: Queryable, where: Conditions, limit: number): Promise<Row[]> {
  const max = where.param(limit);
  return db.query(`SELECT ${ENTRY_COLUMNS} ${FROM} ${where.sql} ORDER BY a."id" DESC LIMIT ${max}`, where.params);
}
