// Who is writing (ADR-0036): the request's user travels with the request's asynchronous work
// (AsyncLocalStorage), and every transaction opened for it tells the database first, in the
// transaction-local setting `icrs.actor` that the audit triggers read (./triggers.ts). A write
// outside a transaction is run in one for that. Work with no actor (start-up, seeds, sign-in
// before the user is known) is the server's own, or the row's `updatedBy`.
import { AsyncLocalStorage } from 'node:async_hooks';
import { isWrite, type Db, type Queryable } from '../../db/index';

export interface AuditActor {
  userId: string;
  userName: string;
  role: number;
  location: number;
  /** The device's time of an uploaded offline change (a batch record that says it). */
  deviceAt?: string;
  /** Work of a batched upload: a new record's UUIDv7 key tells the device's time of it. */
  upload?: boolean;
}

const actors = new AsyncLocalStorage<AuditActor>();

/** Runs `work` (and everything it starts) as `actor`'s. */
export const runAs = <T>(actor: AuditActor, work: () => T): T => actors.run(actor, work);

export const currentActor = (): AuditActor | undefined => actors.getStore();

const ACTOR_SETTING = 'icrs.actor';

/** Tells the database, inside transaction `tx`, who makes its changes (from here on). */
export async function declareActor(tx: Queryable, actor: AuditActor | undefined = currentActor()): Promise<void> {
  if (actor) await tx.query('SELECT set_config($1, $2, true)', [ACTOR_SETTING, JSON.stringify(actor)]);
}

/** The transaction settings naming the request's user, if any. */
function actorSettings(): Record<string, string> | undefined {
  const actor = currentActor();
  return actor && { [ACTOR_SETTING]: JSON.stringify(actor) };
}

/** `db`, telling the database who writes whenever a request's user is known. */
export function withAuditActor(db: Db): Db {
  return {
    ...db,
    query(sql, params) {
      const settings = actorSettings();
      if (!settings || !isWrite(sql)) return db.query(sql, params);
      return db.transaction((tx) => tx.query(sql, params), settings);
    },
    transaction(work, settings) {
      return db.transaction(work, { ...actorSettings(), ...settings });
    },
  };
}
