// The password failure counter (server/lib/throttle.ts), on a real database: windows, waits, a
// success clearing its name, IPv6 counted per /64, and counts shared by every server process
// (two throttles on one database stand for two processes: ADR-0002).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { openDb, type Db } from '../../server/db/index';
import { migrate } from '../../server/db/migrations';
import { addressKey, LOGIN_LIMITS, PasswordThrottle } from '../../server/lib/throttle';

describe('PasswordThrottle', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ ...configFromEnv({}), dataDir: 'memory://' });
    await migrate(db);
  });
  afterAll(() => db?.close());

  /** Moves every running window of `key` to end in `ms` from now. */
  const endIn = (key: string, ms: number) =>
    db.query(`UPDATE "password_failures" SET "endsAt" = now() + $2 * interval '1 millisecond' WHERE "key" = $1`, [key, ms]);

  it('makes a user name wait once it reached its failures, until its window ends, whatever its case', async () => {
    const throttle = new PasswordThrottle(db);
    for (let i = 0; i < LOGIN_LIMITS.perUserName.maxFailures - 1; i++) await throttle.failed('Amani', '10.0.0.1');
    expect(await throttle.retryAfterSeconds('amani', '10.0.0.1')).toBe(0);
    await throttle.failed('AMANI', '10.0.0.1');
    const wait = await throttle.retryAfterSeconds('amani', '10.0.0.2');
    expect(wait).toBeGreaterThan(14 * 60);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    expect(await throttle.retryAfterSeconds('neema', '10.0.0.2')).toBe(0);
    await endIn('name:amani', -1);
    expect(await throttle.retryAfterSeconds('amani', '10.0.0.2')).toBe(0);
    await throttle.failed('amani', '10.0.0.1'); // a new window starts at one failure
    expect(await throttle.retryAfterSeconds('amani', '10.0.0.2')).toBe(0);
  });

  it('clears a user name on success, not its address', async () => {
    const throttle = new PasswordThrottle(db);
    for (let i = 0; i < 5; i++) await throttle.failed('baraka', '10.0.1.1');
    await throttle.succeeded('Baraka');
    expect(await throttle.retryAfterSeconds('baraka', '10.0.1.9')).toBe(0);
    const [row] = await db.query<{ failures: number }>('SELECT "failures" FROM "password_failures" WHERE "key" = $1', ['address:10.0.1.1']);
    expect(row?.failures).toBe(5);
  });

  it('counts the same tries in every server process', async () => {
    const [first, second] = [new PasswordThrottle(db), new PasswordThrottle(db)];
    for (let i = 0; i < 3; i++) await first.failed('chance', '10.0.2.1');
    for (let i = 0; i < 2; i++) await second.failed('chance', '10.0.2.2');
    expect(await first.retryAfterSeconds('chance', '10.0.2.3')).toBeGreaterThan(0);
    expect(await second.retryAfterSeconds('chance', '10.0.2.3')).toBeGreaterThan(0);
  });

  it('counts an address after 30 failures over several names, an IPv6 address by its /64', async () => {
    const throttle = new PasswordThrottle(db);
    for (let i = 0; i < LOGIN_LIMITS.perAddress.maxFailures; i++)
      await throttle.failed(`nobody${i}`, `2001:db8:1:2::${(i + 1).toString(16)}`);
    expect(await throttle.retryAfterSeconds('someone', '2001:db8:1:2:ffff:1:2:3')).toBeGreaterThan(0);
    expect(await throttle.retryAfterSeconds('someone', '2001:db8:1:3::1')).toBe(0);
  });
});

describe('addressKey', () => {
  it('keeps IPv4 as it is, reads IPv4-mapped IPv6 as IPv4, and counts IPv6 per /64', () => {
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:0DB8:0000:0001:abcd:1:2:3')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
