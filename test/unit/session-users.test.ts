// The user rows the session check keeps (server/plugins/users/sessionUsers.ts): read once for a
// burst of requests, never kept past a change heard or KEEP_MS, never kept from a read that a
// change overtook.
import { describe, expect, it } from 'vitest';
import type { Db, Queryable, Row } from '../../server/db/index';
import { KEEP_MS, SessionUsers } from '../../server/plugins/users/sessionUsers';

/** A users table of one row behind a query counter; each read can be held until let go. */
function fakeUsers() {
  const state = { active: true, reads: 0, hold: false };
  const held: (() => void)[] = [];
  const db: Queryable = {
    async query<T extends Row>(): Promise<T[]> {
      state.reads += 1;
      const row = { userId: 'u1', active: state.active } as unknown as T; // read now, answered later
      if (state.hold) await new Promise<void>((resolve) => held.push(resolve));
      return [row];
    },
  };
  return { db, state, release: () => held.splice(0).forEach((go) => go()) };
}

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('SessionUsers', () => {
  it('reads a user once for the requests of a moment, again after KEEP_MS', async () => {
    const { db, state } = fakeUsers();
    const time = clock();
    const users = new SessionUsers(db, time.now);
    await users.get('u1');
    await users.get('u1');
    expect(state.reads).toBe(1);
    state.active = false;
    time.advance(KEEP_MS - 1);
    expect((await users.get('u1'))?.active).toBe(true);
    time.advance(2);
    expect((await users.get('u1'))?.active).toBe(false);
    expect(state.reads).toBe(2);
  });

  it('reads again after a change was heard', async () => {
    const { db, state } = fakeUsers();
    const users = new SessionUsers(db);
    await users.get('u1');
    state.active = false;
    users.forgetAll();
    expect((await users.get('u1'))?.active).toBe(false);
    expect(state.reads).toBe(2);
  });

  it('shares one read between requests that ask meanwhile', async () => {
    const { db, state, release } = fakeUsers();
    state.hold = true;
    const users = new SessionUsers(db);
    const both = Promise.all([users.get('u1'), users.get('u1')]);
    release();
    await both;
    expect(state.reads).toBe(1);
  });

  it('does not keep a row whose read a change overtook, nor hand that read to later requests', async () => {
    const { db, state, release } = fakeUsers();
    state.hold = true;
    const users = new SessionUsers(db);
    const before = users.get('u1'); // reads the user while still active…
    state.active = false;
    users.forgetAll(); // …and the deactivation is heard before that read answers
    const after = users.get('u1');
    release();
    expect((await before)?.active).toBe(true);
    expect((await after)?.active).toBe(false);
    state.hold = false;
    expect((await users.get('u1'))?.active).toBe(false);
    expect(state.reads).toBe(2);
  });

  it('does not keep an unknown user', async () => {
    let reads = 0;
    const db: Queryable = { query: async () => (reads++ === 0 ? [] : [{ userId: 'new' }]) as never };
    const users = new SessionUsers(db);
    expect(await users.get('new')).toBeUndefined();
    expect(await users.get('new')).toEqual({ userId: 'new' });
  });

  it('forgets every kept row when a query or transaction through the users routes settles', async () => {
    const { db: reader, state } = fakeUsers();
    const users = new SessionUsers(reader);
    const routesDb = users.forgettingAfterEach({
      kind: 'pglite',
      query: async () => [],
      transaction: async (work: (tx: Queryable) => Promise<unknown>) => work({ query: async () => [] }),
    } as unknown as Db);
    await users.get('u1');
    await routesDb.transaction(async () => undefined);
    await users.get('u1');
    await routesDb.query('UPDATE "users" SET "active" = false').catch(() => undefined);
    await users.get('u1');
    expect(state.reads).toBe(3);
    expect(routesDb.kind).toBe('pglite');
  });

  it('with no keeping (PostgreSQL): reads for every request, and shares no read under way', async () => {
    const { db, state, release } = fakeUsers();
    const users = new SessionUsers(db, Date.now, 0);
    await users.get('u1');
    await users.get('u1');
    expect(state.reads).toBe(2);
    state.hold = true;
    const before = users.get('u1'); // under way while the user signs out elsewhere…
    state.active = false;
    const after = users.get('u1'); // …and a request that comes after reads again
    release();
    expect((await before)?.active).toBe(true);
    expect((await after)?.active).toBe(false);
    expect(state.reads).toBe(4);
  });
});
