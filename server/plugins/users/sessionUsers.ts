// The user row every API request checks its session against (auth.ts: active, token version,
// role), kept for a moment so that a burst of requests (a list's page, the dashboard's seven
// calls, an upload's batches) reads it once instead of once per request (issue 16: a list
// answer cost three database round trips where a bare route has two).
//
// A kept row never outlives a change that could end a session:
// - a write through the users routes of this process forgets every kept row as it settles
//   (`forgettingAfterEach`), before its answer leaves, and with several processes it answers once
//   every process heard it (`caughtUp`);
// - a write anywhere else (another server process, a script) reaches every process as the
//   users table's change notification naming the user (sync/changes.ts): it forgets that
//   user's kept row; a LISTEN connection coming back after a fault (`ALL_TABLES`) forgets every
//   kept row;
// - and a row is kept at most KEEP_MS, which bounds what a notification lost in a fault could
//   leave behind.
import { isWrite, type Db, type Queryable } from '../../db/index';
import { findSessionUser, type UserRecord } from './store';

/** The longest a user row is reused without being read again. */
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
   * @param caughtUp resolves once every server process has heard the changes committed so far
   * (sync/changes.ts ChangeHub.caughtUp; several processes share PostgreSQL): a write that ends
   * a session answers only then, so no process serves that session's next request from a row
   * it kept. One process alone needs no wait: its own writes forget its rows.
   */
  constructor(
    private readonly db: Queryable,
    private readonly now: () => number = Date.now,
    private readonly caughtUp: () => Promise<void> = async () => undefined,
  ) {}

  /** The user as stored (at most KEEP_MS ago, and not before the last change heard). */
  get(userId: string): Promise<UserRecord | undefined> {
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
        if (user && current) this.kept.set(userId, { user, until: this.now() + KEEP_MS });
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
    // A write also waits until every server process has heard of it (see `caughtUp`).
    const written = async <T>(work: Promise<T>): Promise<T> => {
      const result = await forget(work);
      await this.caughtUp();
      return result;
    };
    return {
      ...db,
      query: (sql, params) => (isWrite(sql) ? written(db.query(sql, params)) : forget(db.query(sql, params))),
      transaction: (work, settings) => written(db.transaction(work, settings)),
    };
  }
}
