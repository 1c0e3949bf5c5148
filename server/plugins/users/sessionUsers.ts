// The user row every API request checks its session against (auth.ts: active, token version,
// role, signed-out sessions).
//
// On PostgreSQL (one or several server processes) the row is read for every request, by primary
// key, never kept nor shared between requests (docs/adr/0004-sessions-across-processes.md "A signed-out session is
// refused everywhere at once"): a sign-out, password change or deactivation committed through
// any process is seen by the next request on every process, from the moment its answer leaves.
// A kept row would be refused only once this process had read the change's notification,
// which a busy process does milliseconds after the writer's answer.
//
// On the embedded database (one process) the row is kept for a moment so that a burst of
// requests (a list's page, the dashboard's seven calls, an upload's batches) reads it once
// (ADR-0035). A kept row never outlives a change that could end a session:
// - a write through the users routes forgets every kept row as it settles
//   (`forgettingAfterEach`), before its answer leaves;
// - a write anywhere else (a script) reaches the process as the users table's change
//   notification naming the user (sync/changes.ts): it forgets that user's kept row; a LISTEN
//   connection coming back after a fault (`ALL_TABLES`) forgets every kept row;
// - and a row is kept at most KEEP_MS, which bounds what a notification lost in a fault could
//   leave behind.
import type { Db, Queryable } from '../../db/index';
import { findSessionUser, type UserRecord } from './store';

/** The longest a user row is reused without being read again (embedded database only). */
export const KEEP_MS = 2_000;

interface Kept {
  user: UserRecord;
  until: number;
}

export class SessionUsers {
  private readonly kept = new Map<string, Kept>();
  /** Reads under way, shared by the requests that ask meanwhile. */
  private readonly reading = new Map<string, Promise<UserRecord | undefined>>();
  /** Raised by `forgetAll`: a read that started before it is answered but not kept. */
  private generation = 0;

  /**
   * @param keepMs how long a row read is reused: KEEP_MS on the embedded database, 0 on
   * PostgreSQL (read for every request, see above).
   */
  constructor(
    private readonly db: Queryable,
    private readonly now: () => number = Date.now,
    private readonly keepMs: number = KEEP_MS,
  ) {}

  /** The user as stored (at most KEEP_MS ago, and not before the last change heard). */
  get(userId: string): Promise<UserRecord | undefined> {
    // Not even a read under way is shared: it may have started before a sign-out's commit.
    if (this.keepMs <= 0) return findSessionUser(this.db, userId);
    const kept = this.kept.get(userId);
    if (kept && kept.until > this.now()) return Promise.resolve(kept.user);
    const under = this.reading.get(userId);
    if (under) return under;
    const generation = this.generation;
    const read: Promise<UserRecord | undefined> = findSessionUser(this.db, userId)
      .then((user) => {
        // Unknown users are not kept: a user created next must be found at once. A read that a
        // forget overtook is answered but not kept.
        const current = this.reading.get(userId) === read && generation === this.generation;
        if (user && current) this.kept.set(userId, { user, until: this.now() + this.keepMs });
        return user;
      })
      .finally(() => {
        if (this.reading.get(userId) === read) this.reading.delete(userId);
      });
    this.reading.set(userId, read);
    return read;
  }

  /** This user may have changed: its next request reads its row again. */
  forget(userId: string): void {
    this.kept.delete(userId);
    this.reading.delete(userId);
  }

  /** Every user may have changed: the next request of each reads its row again. */
  forgetAll(): void {
    this.generation += 1;
    this.kept.clear();
    this.reading.clear();
  }

  /** `db` for the users routes: every query and transaction through it forgets the kept rows
   * when it settles, so a change a route makes is seen by the very next request. */
  forgettingAfterEach(db: Db): Db {
    const forget = <T>(work: Promise<T>): Promise<T> => work.finally(() => this.forgetAll());
    return {
      ...db,
      query: (sql, params) => forget(db.query(sql, params)),
      transaction: (work, settings) => forget(db.transaction(work, settings)),
    };
  }
}
