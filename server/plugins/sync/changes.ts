// Change events: a trigger on every entity table NOTIFYs when a write commits. PostgreSQL
// delivers it to every server process that LISTENs (several nodes behind a load balancer),
// PGlite in-process; an aborted transaction notifies nobody.
//
// Payloads (parseChange reads them back):
// - `table`: a table of no organisation (the lookup lists), or ALL_TABLES;
// - `table:organisation`: a row of organisation data (schemas/scope.ts ownerPath), a sub-record
//   naming its client's organisation; a row moved between organisations names both;
// - `users:organisation:userId`: a user's row, or one of its sessions signed out.
// PostgreSQL delivers identical payloads of one transaction once, so a bulk write of one
// organisation's rows is still one event (docs/adr/0015-sync-and-pull.md "Change events name their
// organisation").
import { ALL_TABLES } from '../../../schemas/changeStream';
import type { EntityShape } from '../../../schemas/define';
import { ident } from '../../../schemas/derive/sql';
import { user as userEntity } from '../../../schemas/index';
import { AUDIT_LOG, auditScope, inScope, isOwned, mirrorScope, ownerColumn, recordScope, type Actor } from '../../../schemas/scope';
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../../db/index';
import { canRead } from '../users/scope';

export const CHANGE_CHANNEL = 'icrs_changes';
// The change event naming every table (schemas/changeStream.ts) is sent to the open streams when
// the LISTEN connection comes back after a fault, because the notifications of that time were
// lost. The app answers it as after a reconnect of its own stream: it pulls every table.
export { ALL_TABLES };

/** The users table's name, as its change events name it. */
export const USERS_TABLE = userEntity.table;

export const changeFunctionSql = `
CREATE OR REPLACE FUNCTION icrs_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${CHANGE_CHANNEL}', TG_TABLE_NAME);
  RETURN NULL;
END
$$`;

/** True when the table's events name an organisation: every table of organisation data. */
export const hasOwnedEvents = (entity: EntityShape): boolean => isOwned(entity);

/** The owner of the row `NEW` (or `OLD` on a delete): its own column, a sub-record's server-kept
 * copy of its root's (schemas/scope.ts ownerColumn). */
export function ownerExpression(entity: EntityShape, row: 'NEW' | 'OLD'): string {
  const column = ownerColumn(entity);
  if (!column) throw new Error(`${entity.name}: no owner`);
  return `${row}.${ident(column)}`;
}

const rowFunction = (entity: EntityShape) => ident(`icrs_notify_${entity.table}`);

/** A row trigger's body: one notification for the old row (update, delete), one for the new
 * (insert, update); an update that keeps the row's payload sends it once. */
function rowNotifySql(payload: (row: 'NEW' | 'OLD') => string): string {
  return `BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('${CHANGE_CHANNEL}', ${payload('OLD')});
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('${CHANGE_CHANNEL}', ${payload('NEW')});
  END IF;
  RETURN NULL;
END`;
}

const ownedPayload = (entity: EntityShape) => (row: 'NEW' | 'OLD') =>
  `TG_TABLE_NAME || ':' || coalesce(${ownerExpression(entity, row)}, 0)::text`;

/** A user's payload: its organisation (who manages it, server/plugins/users/scope.ts) and key. */
const userPayload = (row: 'NEW' | 'OLD') => `'${USERS_TABLE}:' || coalesce(${row}."location", 0)::text || ':' || ${row}."userId"`;

/** The change trigger of one table: per row naming the organisation (or the user), else per
 * statement. */
export function changeTriggerSql(entity: EntityShape): string[] {
  const trigger = ident(`${entity.table}_changed`);
  const drop = `DROP TRIGGER IF EXISTS ${trigger} ON ${ident(entity.table)}`;
  const payload = entity.table === USERS_TABLE ? userPayload : hasOwnedEvents(entity) ? ownedPayload(entity) : undefined;
  if (!payload) {
    // One notification per statement (not per row): a bulk insert is one event.
    return [
      drop,
      `CREATE TRIGGER ${trigger} AFTER INSERT OR UPDATE OR DELETE ON ${ident(entity.table)} FOR EACH STATEMENT EXECUTE FUNCTION icrs_notify_change()`,
    ];
  }
  const fn = rowFunction(entity);
  return [
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
${rowNotifySql(payload)}
$$`,
    drop,
    `CREATE TRIGGER ${trigger} AFTER INSERT OR UPDATE OR DELETE ON ${ident(entity.table)} FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
  ];
}

/** A signed-out session is a change of its user: only that user's streams and kept rows hear it. */
export const signedOutTriggerSql: string[] = [
  `CREATE OR REPLACE FUNCTION icrs_notify_users_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${CHANGE_CHANNEL}', '${USERS_TABLE}:' ||
    coalesce((SELECT u."location" FROM ${ident(USERS_TABLE)} u WHERE u."userId" = NEW."userId"), 0)::text || ':' || NEW."userId");
  RETURN NULL;
END
$$`,
  'DROP TRIGGER IF EXISTS "signed_out_sessions_changed" ON "signed_out_sessions"',
  `CREATE TRIGGER "signed_out_sessions_changed" AFTER INSERT ON "signed_out_sessions"
    FOR EACH ROW EXECUTE FUNCTION icrs_notify_users_change()`,
];

/** A change notification: the table; the owning organisation of organisation data and users;
 * the user of a user's change. */
export interface Change {
  table: string;
  owner?: number;
  user?: string;
}

export function parseChange(payload: string): Change {
  const userPrefix = `${USERS_TABLE}:`;
  if (payload.startsWith(userPrefix)) {
    const rest = payload.slice(userPrefix.length);
    const at = rest.indexOf(':');
    const owner = Number(rest.slice(0, at));
    if (at > 0 && Number.isInteger(owner)) return { table: USERS_TABLE, owner, user: rest.slice(at + 1) };
  }
  const at = payload.lastIndexOf(':');
  const owner = at > 0 ? Number(payload.slice(at + 1)) : NaN;
  return Number.isInteger(owner) ? { table: payload.slice(0, at), owner } : { table: payload };
}

/** Who a stream is for: the user of its session. */
export interface StreamUser extends Actor {
  userId: string;
}

/**
 * True when `actor` may hear of `change`, by the rules that decide what it may read: the read
 * scope of organisation data (schemas/scope.ts), the audit scope, and for a user's change the
 * users' own rule (server/plugins/users/scope.ts: oneself, role 7 its organisation's staff,
 * role 1 everyone). Events of no organisation name a table the stream checked.
 */
export function mayHear(actor: StreamUser, entity: EntityShape | undefined, change: Change): boolean {
  if (change.table === AUDIT_LOG) return inScope(auditScope(actor), change.owner);
  if (change.user !== undefined) return canRead(actor, { userId: change.user, location: change.owner ?? 0 });
  if (change.owner === undefined || !entity) return true;
  return inScope(recordScope(actor, entity, 'read'), change.owner);
}

/** True when the device of `actor` holds rows the change may be about (schemas/scope.ts
 * mirrorScope): a change it hears for its lists only (a directory record of another
 * organisation, another organisation's client for role 1 with an organisation) is no reason to
 * pull. */
export function mayMirror(actor: Actor, entity: EntityShape | undefined, change: Change): boolean {
  if (change.owner === undefined || !entity?.offline || !isOwned(entity)) return true;
  return inScope(mirrorScope(actor, entity), change.owner);
}

type ChangeListener = (change: Change) => void;

/** A notification of this process's own, sent to learn when it has heard what came before it. */
const CAUGHT_UP_MARK = 'caught-up:';
/** The longest a write waits to hear its own notification (the LISTEN connection may be down). */
const CAUGHT_UP_MS = 1_000;

/** Fans the database's change notifications out to the open streams of this process. */
export class ChangeHub {
  private readonly listeners = new Set<ChangeListener>();
  private readonly marks = new Map<string, () => void>();
  private unlisten?: () => Promise<void>;

  async start(db: Db): Promise<void> {
    const publish = (payload: string) => {
      if (payload.startsWith(CAUGHT_UP_MARK)) return this.marks.get(payload)?.();
      const change = parseChange(payload);
      this.listeners.forEach((listener) => listener(change));
    };
    this.unlisten = await db.listen(CHANGE_CHANNEL, publish, () => publish(ALL_TABLES));
  }

  /**
   * Resolves once this process has heard every change committed before the call: PostgreSQL
   * delivers notifications in commit order, so hearing a mark sent now means those before it
   * were delivered, here and, at the same moment, to every other server process (a test
   * counts events once they were heard). At most CAUGHT_UP_MS.
   */
  async caughtUp(db: Queryable): Promise<void> {
    const mark = `${CAUGHT_UP_MARK}${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve) => {
      this.marks.set(mark, resolve);
      timer = setTimeout(resolve, CAUGHT_UP_MS);
    });
    try {
      // Bounded even while the database is frozen; a failure to send the mark (the database went
      // away after the write) leaves the write standing, and the kept rows expire anyway.
      const sent = db.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, mark]).then(
        () => heard,
        () => undefined,
      );
      await Promise.race([sent, heard]);
    } finally {
      clearTimeout(timer);
      this.marks.delete(mark);
    }
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    this.listeners.clear();
    await this.unlisten?.();
  }
}
