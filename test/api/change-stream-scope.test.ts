// Who hears a change (GET /api/sync/stream): organisation data only the streams whose user may
// read that organisation's records (a sub-record: its client's organisation), everything for
// role 1 without an organisation; a change the device does not mirror marked `mirror: false`; a
// user's change only the streams of those who may read that user; and the same across server
// processes sharing one PostgreSQL database.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { profile, serviceProvider, skills } from '../../schemas/index';
import type { Change } from '../../server/plugins/sync/changes';
import { backends } from '../helpers/db';
import { ensureOrganisations } from '../helpers/records';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { startTestServer, type TestServer } from '../helpers/server';
import { StreamReader } from '../helpers/sse';

const A = 2; // organisation 'ADC'
const B = 3; // organisation 'CAJ'
const ABBR: Record<number, string> = { [A]: 'ADC', [B]: 'CAJ' };
const CLIENTS = profile.table;
const SKILLS = skills.table;
const PROVIDERS = serviceProvider.table;

const USERS = {
  a3: { role: 3, location: A },
  b3: { role: 3, location: B },
  a1: { role: 1, location: A },
  a7: { role: 7, location: A },
  b7: { role: 7, location: B },
  x3: { role: 3, location: A },
  w3: { role: 3, location: B },
} as const;
type Name = keyof typeof USERS | 'admin';

describe.each(backends)('change stream scope on %s', (backend) => {
  let t: TestServer;
  const tokens = {} as Record<Name, string>;
  const ids = {} as Record<Name, string>;
  const open: StreamReader[] = [];

  async function streamOf(name: Name, url?: string): Promise<StreamReader> {
    const reader = new StreamReader();
    const ticketUrl = await t.streamUrl(tokens[name]);
    await reader.open(url ? ticketUrl.replace(t.url, url) : ticketUrl);
    open.push(reader);
    return reader;
  }

  async function streams<N extends Name>(...names: N[]): Promise<Record<N, StreamReader>> {
    const readers = await Promise.all(names.map((name) => streamOf(name)));
    return Object.fromEntries(names.map((name, i) => [name, readers[i]])) as Record<N, StreamReader>;
  }

  const eventsOf = (reader: StreamReader, table: string) => reader.events.filter((e) => e.table === table);

  async function newClient(by: Name, organisation: number, base = t.url): Promise<string> {
    const body: Record<string, unknown> = { ...sampleBody(profile, {}), prof_Reg_No: registrationNumber(ABBR[organisation] as string) };
    const answer = await fetch(`${base}/api/profile/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[by]}` },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(201);
    return String(body.prof_Id);
  }

  beforeAll(async () => {
    t = await startTestServer({ backend, roles: 'one' });
    await ensureOrganisations(t.server.db);
    tokens.admin = await t.login(t.admin.userName, t.admin.password);
    for (const [name, { role, location }] of Object.entries(USERS)) {
      ids[name as Name] = (await t.createUser({ userName: `scope-${name}`, password: `password-${name}`, role, location })).userId;
      tokens[name as Name] = await t.login(`scope-${name}`, `password-${name}`);
    }
  }, 60_000);
  // Each test's streams end with it: a heartbeat's session check of an earlier stream must not
  // count as a later test's.
  afterEach(() => open.splice(0).forEach((reader) => reader.close()));
  afterAll(() => t?.close());

  it("tells a client's change to its organisation's streams and the readers of everything, never to another organisation", async () => {
    const s = await streams('a3', 'b3', 'admin', 'a1');
    await newClient('a3', A);
    for (const name of ['a3', 'admin', 'a1'] as const) await s[name].next(CLIENTS, 0);
    // B's change next: B's stream hears it as its first, so it heard nothing of A's.
    await newClient('b3', B);
    await s.b3.next(CLIENTS, 0);
    await s.admin.next(CLIENTS, s.admin.tables.indexOf(CLIENTS) + 1);
    await s.a1.next(CLIENTS, s.a1.tables.indexOf(CLIENTS) + 1);
    // And A's again: A's stream hears it as its second, so it heard nothing of B's.
    await newClient('a3', A);
    await s.a3.next(CLIENTS, s.a3.tables.indexOf(CLIENTS) + 1);
    expect(eventsOf(s.a3, CLIENTS)).toEqual([{ table: CLIENTS }, { table: CLIENTS }]);
    expect(eventsOf(s.b3, CLIENTS)).toEqual([{ table: CLIENTS }]);
    expect(eventsOf(s.admin, CLIENTS).slice(0, 2)).toEqual([{ table: CLIENTS }, { table: CLIENTS }]);
    // Role 1 with an organisation reads every client but its device mirrors only its own.
    expect(eventsOf(s.a1, CLIENTS).slice(0, 2)).toEqual([{ table: CLIENTS }, { table: CLIENTS, mirror: false }]);
  });

  it("tells a sub-record's change to its client's organisation only", async () => {
    const [clientA, clientB] = [await newClient('a3', A), await newClient('b3', B)];
    const s = await streams('a3', 'b3', 'admin');
    const addSkills = async (by: Name, client: string) =>
      expect(
        (await t.api('POST', '/profile/skprofile/', { token: tokens[by], body: { prof_Id: client, diploma: 'State diploma' } })).status,
      ).toBe(201);
    await addSkills('a3', clientA);
    await s.a3.next(SKILLS, 0);
    await s.admin.next(SKILLS, 0);
    await addSkills('b3', clientB);
    await s.b3.next(SKILLS, 0);
    await s.admin.next(SKILLS, s.admin.tables.indexOf(SKILLS) + 1);
    await addSkills('a3', await newClient('a3', A));
    await s.a3.next(SKILLS, s.a3.tables.indexOf(SKILLS) + 1);
    expect([eventsOf(s.a3, SKILLS).length, eventsOf(s.b3, SKILLS).length]).toEqual([2, 1]);
  });

  it("tells another organisation's directory change to every reader, marked as outside the device's mirror", async () => {
    const s = await streams('a3', 'b3');
    const provider = { ...sampleBody(serviceProvider) };
    expect((await t.api('POST', '/sproviers/', { token: tokens.b3, body: provider })).status).toBe(201);
    await s.a3.next(PROVIDERS, 0);
    await s.b3.next(PROVIDERS, 0);
    expect(eventsOf(s.a3, PROVIDERS)).toEqual([{ table: PROVIDERS, mirror: false }]);
    expect(eventsOf(s.b3, PROVIDERS)).toEqual([{ table: PROVIDERS }]);
  });

  it('notifies a bulk write of one organisation once, and a client moved to another organisation to both', async () => {
    await newClient('a3', A);
    await t.server.changes.caughtUp(t.server.db); // that client's own event is heard before counting
    const heard: Change[] = [];
    const stop = t.server.changes.subscribe((change) => {
      if (change.table === CLIENTS) heard.push(change);
    });
    try {
      await t.server.db.query(`UPDATE "${CLIENTS}" SET "firstName" = "firstName" WHERE "location" = $1`, [A]);
      await t.server.changes.caughtUp(t.server.db);
      expect(heard).toEqual([{ table: CLIENTS, owner: A }]);

      const moved = await newClient('a3', A);
      const s = await streams('a3', 'b3');
      await t.server.db.query(`UPDATE "${CLIENTS}" SET "location" = $1 WHERE "prof_Id" = $2`, [B, moved]);
      await s.a3.next(CLIENTS, 0);
      await s.b3.next(CLIENTS, 0);
    } finally {
      stop();
    }
  });

  it("wakes only a user's own streams at its sign-in, and tells those who may read that user", async () => {
    const s = await streams('x3', 'a3', 'b3', 'a7', 'b7', 'admin');
    const checks = async () => {
      const { status, body } = await t.api('GET', '/metrics', { token: tokens.admin });
      expect(status).toBe(200);
      return Number(/^icrs_change_stream_session_checks_total (\d+)/m.exec(String(body))?.[1]);
    };
    const before = await checks();
    await t.login('scope-x3', 'password-x3');
    await s.admin.next('users', 0);
    await s.a7.next('users', 0);
    // One check: the signed-in user's own stream; the five others read nothing.
    expect((await checks()) - before).toBe(1);
    // W (of B, no stream) signs in: B's staff manager hears it as its first, so it heard nothing of X.
    await t.login('scope-w3', 'password-w3');
    await s.b7.next('users', 0);
    await s.admin.next('users', s.admin.tables.indexOf('users') + 1);
    expect((await checks()) - before).toBe(1);
    expect(eventsOf(s.b7, 'users')).toHaveLength(1);
    expect(eventsOf(s.a7, 'users')).toHaveLength(1);
    // Role 3 reads no users: its streams hear no user's change, its own sign-in included.
    for (const name of ['x3', 'a3', 'b3'] as const) expect(eventsOf(s[name], 'users')).toEqual([]);
  });

  describe.runIf(backend === 'postgres')('with a second server process', () => {
    let other: ServerProcess;
    beforeAll(async () => {
      other = await startServerProcess(t.config.databaseUrl as string, { JWT_SECRET: t.config.jwtSecret as string });
    }, 60_000);
    afterAll(() => other?.stop());

    it("routes the other process's writes to this one's streams by organisation, and ends a stream signed out there", async () => {
      const a3 = await streamOf('a3', other.url);
      const b3 = await streamOf('b3', other.url);
      const x3 = await streamOf('x3', other.url);
      await newClient('a3', A);
      await a3.next(CLIENTS, 0);
      await newClient('b3', B);
      await b3.next(CLIENTS, 0);
      // X signs out through this process: its stream on the other ends; A's goes on, and hears
      // A's next change as its second (nothing of B's).
      expect((await t.api('POST', '/logout', { token: tokens.x3 })).status).toBe(204);
      await x3.ended;
      await newClient('a3', A);
      await a3.next(CLIENTS, 1);
      expect([eventsOf(a3, CLIENTS).length, eventsOf(b3, CLIENTS).length]).toEqual([2, 1]);
    });
  });
});
