// Change events: a trigger on every entity table NOTIFYs the table's name when a write
// commits. PostgreSQL delivers it to every server process that LISTENs (several nodes behind a
// load balancer), PGlite in-process; an aborted transaction notifies nobody.
import { ALL_TABLES } from '../../../schemas/changeStream';
import type { EntityShape } from '../../../schemas/define';
import { ident } from '../../../schemas/derive/sql';
import { AUDIT_LOG, auditScope, inScope, isPrivate, ownerPath, recordScope, type Actor } from '../../../schemas/scope';
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../../db/index';

export const CHANGE_CHANNEL = 'icrs_changes';
// The change event naming every table (schemas/changeStream.ts) is sent to the open streams when
// the LISTEN connection comes back after a fault, because the notifications of that time were
// lost. The app answers it as after a reconnect of its own stream: it pulls every table.
export { ALL_TABLES };

export const changeFunctionSql = `
CREATE OR REPLACE FUNCTION icrs_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${CHANGE_CHANNEL}', TG_TABLE_NAME);
  RETURN NULL;
END
$$`;

/**
 * Client data with no device collection (referrals, job referrals): its change event is the
 * only thing a screen learns (there is no scoped pull feed behind it), so the event names the
 * owning organisation and the stream passes it only to users who may read that organisation's
 * records, as reads are scoped (schemas/scope.ts). Offline tables keep one event per statement:
 * what changed comes through their scoped pull feed.
 */
export const hasOwnedEvents = (entity: EntityShape): boolean => !entity.offline && isPrivate(entity);

/** The owner of the row `NEW` (or `OLD` on a delete), through the entity's parents. */
export function ownerExpression(entity: EntityShape, row: 'NEW' | 'OLD'): string {
  const path = ownerPath(entity);
  if (!path) throw new Error(`${entity.name}: no owner`);
  if (!path.steps.length) return `${row}.${ident(path.root.field)}`;
  // Innermost first: the root's owner column, found by the chain of parent keys from the row.
  let key = `${row}.${ident(path.steps[0]?.parentField as string)}`;
  let sql = '';
  path.steps.forEach((step, i) => {
    const alias = `o${i}`;
    const next = path.steps[i + 1];
    const column = next ? ident(next.parentField) : ident(path.root.field);
    sql = `(SELECT ${alias}.${column} FROM ${ident(step.parent.table)} ${alias} WHERE ${alias}.${ident(step.parent.keyFields[0] as string)} = ${key})`;
    key = sql;
  });
  return sql;
}

const ownedFunction = (entity: EntityShape) => ident(`icrs_notify_${entity.table}`);

/** The change trigger of one table: per statement, or per row with the owner (hasOwnedEvents). */
export function changeTriggerSql(entity: EntityShape): string[] {
  const trigger = ident(`${entity.table}_changed`);
  const drop = `DROP TRIGGER IF EXISTS ${trigger} ON ${ident(entity.table)}`;
  if (!hasOwnedEvents(entity)) {
    // One notification per statement (not per row): a bulk insert is one event.
    return [
      drop,
      `CREATE TRIGGER ${trigger} AFTER INSERT OR UPDATE OR DELETE ON ${ident(entity.table)} FOR EACH STATEMENT EXECUTE FUNCTION icrs_notify_change()`,
    ];
  }
  // Identical payloads of one transaction are delivered once, so a bulk change of one
  // organisation's rows is still one event.
  const fn = ownedFunction(entity);
  return [
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('${CHANGE_CHANNEL}', TG_TABLE_NAME || ':' || coalesce(${ownerExpression(entity, 'OLD')}, 0)::text);
  ELSE
    PERFORM pg_notify('${CHANGE_CHANNEL}', TG_TABLE_NAME || ':' || coalesce(${ownerExpression(entity, 'NEW')}, 0)::text);
  END IF;
  RETURN NULL;
END
$$`,
    drop,
    `CREATE TRIGGER ${trigger} AFTER INSERT OR UPDATE OR DELETE ON ${ident(entity.table)} FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
  ];
}

/** A change notification: the table, and for owned events the owning organisation. */
export interface Change {
  table: string;
  owner?: number;
}

export function parseChange(payload: string): Change {
  const at = payload.lastIndexOf(':');
  const owner = at > 0 ? Number(payload.slice(at + 1)) : NaN;
  return Number.isInteger(owner) ? { table: payload.slice(0, at), owner } : { table: payload };
}

/** True when `actor` may hear of `change`: owned events only reach those who may read that
 * organisation's records (the read scope); other events name a table the stream checked. */
export function mayHear(actor: Actor, entity: EntityShape | undefined, change: Change): boolean {
  if (change.table === AUDIT_LOG) return inScope(auditScope(actor), change.owner);
  if (change.owner === undefined || !entity) return true;
  return inScope(recordScope(actor, entity, 'read'), change.owner);
}

type Listener = (table: string) => void;

/** A notification of this process's own, sent to learn when it has heard what came before it. */
const CAUGHT_UP_MARK = 'caught-up:';
/** The longest a write waits to hear its own notification (the LISTEN connection may be down). */
const CAUGHT_UP_MS = 1_000;

/** Fans the database's change notifications out to the open streams of this process. */
export class ChangeHub {
  private readonly listeners = new Set<Listener>();
  private readonly marks = new Map<string, () => void>();
  private unlisten?: () => Promise<void>;

  async start(db: Db): Promise<void> {
    const publish = (table: string) => {
      if (table.startsWith(CAUGHT_UP_MARK)) return this.marks.get(table)?.();
      this.listeners.forEach((listener) => listener(table));
    };
    this.unlisten = await db.listen(CHANGE_CHANNEL, publish, () => publish(ALL_TABLES));
  }

  /**
   * Resolves once this process has heard every change committed before the call: PostgreSQL
   * delivers notifications in commit order, so hearing a mark sent now means those before it
   * were delivered, here and, at the same moment, to every other server process. A write that
   * ends sessions waits for it before answering, so the next request, whichever process it
   * reaches, finds the session over (issue 29 §3). At most CAUGHT_UP_MS.
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

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    this.listeners.clear();
    await this.unlisten?.();
  }
}
