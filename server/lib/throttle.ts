// Counts failed password checks per key (a user name, an address) in fixed windows, in the
// database, so every server process counts the same tries (ADR-0002: with counts in each
// process's memory, N processes allowed N times the tries). Numbers and reasons:
// docs/security.md "Sessions and accounts".
//
// One row per key of the "password_failures" table: its failures and the end of its window
// (the database's clock, the same for every process). A failure after the window's end starts a
// new window. Expired rows are deleted as failures come, so the table holds only the windows
// still running.
import { isIPv6 } from 'node:net';
import type { Queryable } from '../db/index';

export interface ThrottleRule {
  /** Failures allowed in one window; the next attempt is refused until the window ends. */
  maxFailures: number;
  windowMs: number;
}

const FIFTEEN_MINUTES = 15 * 60_000;

/** Password limits (docs/security.md): 5 failures per user name, 30 per address, per 15 minutes. */
export const LOGIN_LIMITS = {
  perUserName: { maxFailures: 5, windowMs: FIFTEEN_MINUTES },
  perAddress: { maxFailures: 30, windowMs: FIFTEEN_MINUTES },
} as const satisfies Record<string, ThrottleRule>;

export const THROTTLE_TABLE_SQL = `CREATE TABLE IF NOT EXISTS "password_failures" (
  "key" text PRIMARY KEY,
  "failures" integer NOT NULL CHECK ("failures" > 0),
  "endsAt" timestamptz NOT NULL
)`;

/**
 * The address a client is counted under: an IPv4 address as it is; an IPv6 address by its /64
 * network, which one subscriber usually holds whole (counting each of its 2^64 addresses alone
 * would leave it unlimited). An IPv4 address written as IPv6 (::ffff:1.2.3.4) is the IPv4 one.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('%')[0]?.split('::') ?? [];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

/** How often (at most) a process deletes the expired rows. */
const SWEEP_MS = 60_000;

/** The two counters of every password check: one per user name (case-insensitive, as sign-in
 * is), one per address (addressKey). */
export class PasswordThrottle {
  private lastSweep = 0;

  constructor(private readonly db: Queryable) {}

  private static keys(userName: string, address: string): [string, ThrottleRule][] {
    return [
      [`name:${userName.toLowerCase()}`, LOGIN_LIMITS.perUserName],
      [`address:${addressKey(address)}`, LOGIN_LIMITS.perAddress],
    ];
  }

  /** Seconds to wait before this user name may try again from this address; 0 when it may now. */
  async retryAfterSeconds(userName: string, address: string): Promise<number> {
    const keys = PasswordThrottle.keys(userName, address);
    const rows = await this.db.query<{ key: string; failures: number; waitMs: number }>(
      `SELECT "key", "failures", ceil(extract(epoch FROM ("endsAt" - now())) * 1000)::int AS "waitMs"
       FROM "password_failures" WHERE "key" = ANY($1::text[]) AND "endsAt" > now()`,
      [keys.map(([key]) => key)],
    );
    let waitMs = 0;
    for (const row of rows) {
      const rule = keys.find(([key]) => key === row.key)?.[1];
      if (rule && row.failures >= rule.maxFailures) waitMs = Math.max(waitMs, row.waitMs);
    }
    return Math.ceil(waitMs / 1000);
  }

  async failed(userName: string, address: string): Promise<void> {
    for (const [key, rule] of PasswordThrottle.keys(userName, address)) {
      await this.db.query(
        `INSERT INTO "password_failures" AS f ("key", "failures", "endsAt") VALUES ($1, 1, now() + $2 * interval '1 millisecond')
         ON CONFLICT ("key") DO UPDATE SET
           "failures" = CASE WHEN f."endsAt" <= now() THEN 1 ELSE f."failures" + 1 END,
           "endsAt" = CASE WHEN f."endsAt" <= now() THEN EXCLUDED."endsAt" ELSE f."endsAt" END`,
        [key, rule.windowMs],
      );
    }
    if (Date.now() - this.lastSweep > SWEEP_MS) {
      this.lastSweep = Date.now();
      await this.db.query('DELETE FROM "password_failures" WHERE "endsAt" <= now()');
    }
  }

  /** A success clears its user name's failures. Not its address's: with an account of their own,
   * someone guessing others' passwords could otherwise clear their address between guesses. */
  async succeeded(userName: string): Promise<void> {
    await this.db.query('DELETE FROM "password_failures" WHERE "key" = $1', [`name:${userName.toLowerCase()}`]);
  }
}
