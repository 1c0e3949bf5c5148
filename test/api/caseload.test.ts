// The caseload (docs/product.md §6.5.1, docs/offline-contract.md "The caseload"): clients
// have an assigned worker (who registered them, unless reassigned); assignment by the roles that
// manage clients, within their organisation, each audited; a field worker's device pulls exactly
// its caseload (assigned, territories, pinned, with each client's records), bounded, nearest
// first; a client leaving it is removed at the next pull, and the stream says so at once; the
// figures of a caseload and of a proposed change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { migrate } from '../../server/db/migrations';
import { countBound, setCountBound } from '../../server/lib/records/count';
import { backends } from '../helpers/db';
import { ok, ORG_A as A, ORG_B as B, startWithStaff } from '../helpers/api/staff';
import { StreamReader } from '../helpers/sse';
import { type TestServer } from '../helpers/server';

const BOUND = 6;
// Territories (items of the seeded `territory` list).
const T1 = 1;
const T2 = 2;
const T3 = 3;
type Body = Record<string, unknown>;
interface Pulled {
  documents: Body[];
  checkpoint: { updatedAt: string; id: string } | null;
}

describe.each(backends)('the caseload on %s', (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  const id: Record<string, string> = {};
  const as = (who: string, method: string, path: string, body?: unknown) => t.api(method, path, { token: token[who], body });
  /** Every page of a table's pull after `since`: the rows and the new checkpoint. */
  const pull = async (who: string, table: string, since?: Pulled['checkpoint']): Promise<Pulled> => {
    const documents: Body[] = [];
    let checkpoint = since ?? null;
    for (;;) {
      const query = checkpoint
        ? `?limit=3&updatedAt=${encodeURIComponent(checkpoint.updatedAt)}&id=${encodeURIComponent(checkpoint.id)}`
        : '?limit=3';
      const page = ok(200)(await as(who, 'GET', `/sync/${table}${query}`)).body as Pulled;
      documents.push(...page.documents);
      if (page.documents.length < 3) return { documents, checkpoint: page.checkpoint };
      checkpoint = page.checkpoint;
    }
  };
  /** What a device holds after applying `pulled` on top of `held`: live keys. */
  const apply = (held: Set<string>, pulled: Pulled, key = 'prof_Id') => {
    for (const row of pulled.documents) {
      if (row._deleted) held.delete(String(row[key]));
      else held.add(String(row[key]));
    }
    return held;
  };
  const live = (pulled: Pulled, key = 'prof_Id') => apply(new Set(), pulled, key);

  /** A client of `who`'s organisation in `territory`, with skills. */
  async function newClient(who: string, abbr: string, territory = T3): Promise<string> {
    const client: Body = { ...sampleBody(entityByName.profile, {}), prof_Reg_No: registrationNumber(abbr), territory };
    ok(201)(await as(who, 'POST', '/profile/', client));
    const clientId = String(client.prof_Id);
    ok(201)(await as(who, 'POST', '/profile/skprofile/', { prof_Id: clientId, diploma: 'State diploma' }));
    return clientId;
  }

  beforeAll(async () => {
    t = await startWithStaff(
      { backend, roles: 'one', config: { caseloadBound: BOUND } },
      { w1: [3, A], w2: [3, A], w3: [3, A], a5: [5, A], a4: [4, A], a7: [7, A], a6: [6, A], b5: [5, B], b3: [3, B] },
      { prefix: 'cl' },
      { token, id },
    );
  }, 120_000);
  afterAll(() => t?.close());

  it('assigns a new client to who registered it, and the migration assigns those of before to their creator', async () => {
    const client = await newClient('w1', 'ADC');
    expect((ok(200)(await as('a5', 'GET', `/profile/${client}`)).body as Body).assignedTo).toBe(id.w1);
    // A device cannot choose the assignee: the field is the server's.
    const refused = await as('w1', 'PUT', `/profile/${client}`, { assignedTo: id.w2 });
    expect(refused.status).toBe(400);
    // A database of before: no column; the migration fills it from createdBy, without a new time.
    const [before] = await t.server.db.query<{ updatedAt: string }>(`SELECT "updatedAt"::text FROM "tbl_profiles" WHERE "prof_Id" = $1`, [
      client,
    ]);
    await t.server.db.transaction(async (tx) => {
      await tx.query('DROP TABLE "caseload_members", "caseload_departures", "caseload_pins"');
      await tx.query('ALTER TABLE "tbl_profiles" DROP COLUMN "assignedTo" CASCADE');
      await tx.query('ALTER TABLE "users" DROP COLUMN "territories" CASCADE');
      await tx.query(`DELETE FROM "schema_migrations" WHERE "id" = '0029-caseload'`);
    });
    expect(await migrate(t.server.db)).toEqual(['0029-caseload']);
    const [after] = await t.server.db.query<{ assignedTo: string; updatedAt: string }>(
      `SELECT "assignedTo", "updatedAt"::text FROM "tbl_profiles" WHERE "prof_Id" = $1`,
      [client],
    );
    expect(after).toEqual({ assignedTo: id.w1, updatedAt: before?.updatedAt });
  });

  it('assigns one client or many by roles 1, 4, 5 and 7 within their organisation, all or none, each change audited', async () => {
    const clients = [await newClient('w1', 'ADC'), await newClient('w1', 'ADC'), await newClient('w1', 'ADC')];
    const other = await newClient('b3', 'CAJ');
    // Roles without the right: refused.
    for (const who of ['w1', 'a6']) expect((await as(who, 'POST', '/profile/assign', { clients, to: id.w2 })).status).toBe(403);
    // Another organisation's clients do not exist for b5; one of them in a batch refuses it all.
    const foreign = await as('b5', 'POST', '/profile/assign', { clients, to: id.b3 });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'caseload.clientsNotFound']);
    const mixed = await as('a5', 'POST', '/profile/assign', { clients: [...clients, other], to: id.w2 });
    expect([mixed.status, mixed.body.code]).toEqual([404, 'caseload.clientsNotFound']);
    expect((await as('a5', 'GET', `/profile/${clients[0]}`)).body.assignedTo).toBe(id.w1);
    // Only to an active worker of the clients' organisation who works with clients.
    for (const to of [id.b3, id.a6, id.a7]) {
      const bad = await as('a5', 'POST', '/profile/assign', { clients, to });
      expect([bad.status, bad.body.code]).toEqual([400, 'caseload.badAssignee']);
    }
    // Role 1 sees every organisation, but one assignment moves one organisation's clients.
    const across = await as('admin', 'POST', '/profile/assign', { clients: [clients[0], other], to: id.w2 });
    expect([across.status, across.body.code]).toEqual([400, 'caseload.mixedOrganisations']);
    // Over the limit: a clear refusal.
    const many = Array.from({ length: 501 }, () => clients[0]);
    expect((await as('a5', 'POST', '/profile/assign', { clients: many, to: id.w2 })).status).toBe(400);

    expect(ok(200)(await as('a5', 'POST', '/profile/assign', { clients, to: id.w2 })).body).toEqual({ assigned: 3, unchanged: 0 });
    expect(ok(200)(await as('a7', 'POST', '/profile/assign', { clients: clients.slice(0, 1), to: id.w3 })).body).toEqual({
      assigned: 1,
      unchanged: 0,
    });
    expect(ok(200)(await as('a4', 'POST', '/profile/assign', { clients: clients.slice(0, 1), to: id.w3 })).body).toEqual({
      assigned: 0,
      unchanged: 1,
    });
    expect(ok(200)(await as('admin', 'POST', '/profile/assign', { clients: [other], to: id.b3 })).body).toEqual({
      assigned: 0,
      unchanged: 1,
    });
    // The list filters by assignee ("assigned to me", "assigned to …").
    const mine = ok(200)(await as('w2', 'GET', `/profile?assignedTo=${id.w2}&pageSize=100`)).body as { rows: Body[] };
    expect(mine.rows.map((r) => r.prof_Id).sort()).toEqual(clients.slice(1).sort());
    // One entry per client moved, filterable by its action, saying from whom to whom.
    const entries = ok(200)(await as('admin', 'GET', `/audit?action=assign&pageSize=100`)).body as { rows: Body[] };
    const ofClients = entries.rows.filter((e) => clients.includes(String(e.recordId)));
    expect(ofClients.map((e) => [e.recordId, e.userId, e.note]).sort()).toEqual(
      [
        [clients[0], id.a5, `${id.w1} → ${id.w2}`],
        [clients[1], id.a5, `${id.w1} → ${id.w2}`],
        [clients[2], id.a5, `${id.w1} → ${id.w2}`],
        [clients[0], id.a7, `${id.w2} → ${id.w3}`],
      ].sort(),
    );
    // Role 7 reads its organisation's entries, filtered the same way.
    const seen = ok(200)(await as('a7', 'GET', `/audit?action=assign&recordId=${clients[0]}`)).body as { rows: Body[] };
    expect(seen.rows).toHaveLength(2);
  });

  it("pulls exactly the worker's caseload to a role-3 device: assigned, territories, pinned, each with its records", async () => {
    // w3 starts afresh: only what it registers and what the tests give it.
    await t.server.db.query(`UPDATE "tbl_profiles" SET "assignedTo" = NULL WHERE "assignedTo" = $1`, [id.w3]);
    const assigned = await newClient('w3', 'ADC', T3);
    const inTerritory = await newClient('w1', 'ADC', T1);
    const elsewhere = await newClient('w1', 'ADC', T2);
    const toPin = await newClient('w2', 'ADC', T2);
    const foreign = await newClient('b3', 'CAJ', T1);
    let profiles = live(await pull('w3', 'tbl_profiles'));
    expect([...profiles]).toEqual([assigned]);
    expect([...live(await pull('w3', 'tbl_skills'))]).toEqual([assigned]);

    // Territories, set where users are managed: that territory's clients of the organisation.
    const user = ok(200)(await as('a7', 'GET', `/users/${id.w3}`)).body as Body;
    ok(200)(await as('a7', 'PUT', `/users/staff/${id.w3}`, { territories: [T1], updatedAt: user.updatedAt }));
    profiles = live(await pull('w3', 'tbl_profiles'));
    expect(profiles.has(inTerritory)).toBe(true);
    expect(profiles.has(elsewhere) || profiles.has(foreign)).toBe(false);

    // A pin: that client too, with its records.
    ok(200)(await as('w3', 'PUT', `/caseload/pins/${toPin}`));
    profiles = live(await pull('w3', 'tbl_profiles'));
    const skills = live(await pull('w3', 'tbl_skills'));
    expect(profiles.has(toPin) && skills.has(toPin)).toBe(true);
    expect(skills).toEqual(profiles);
    // Exactly the caseload, as the server counts it.
    const [{ n } = { n: 0 }] = await t.server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "tbl_profiles" WHERE "location" = $1 AND ("assignedTo" = $2 OR "territory" = $3 OR "prof_Id" = $4)`,
      [A, id.w3, T1, toPin],
    );
    expect(profiles.size).toBe(Math.min(n, BOUND));
    // A pin of a client one may not read: as if not there.
    expect((await as('w3', 'PUT', `/caseload/pins/${foreign}`)).status).toBe(404);
    // Other roles keep their organisation's mirror.
    expect(live(await pull('a5', 'tbl_profiles')).has(elsewhere)).toBe(true);
    await as('w3', 'DELETE', `/caseload/pins/${toPin}`);
    ok(200)(
      await as('a7', 'PUT', `/users/staff/${id.w3}`, {
        territories: [],
        updatedAt: (await as('a7', 'GET', `/users/${id.w3}`)).body.updatedAt,
      }),
    );
  });

  it('removes a client leaving the caseload from the device at the next pull, with its records, and tells the stream at once', async () => {
    const client = await newClient('w1', 'ADC', T3);
    const pinned = await newClient('w2', 'ADC', T3);
    ok(200)(await as('w1', 'PUT', `/caseload/pins/${pinned}`));
    const first = { p: await pull('w1', 'tbl_profiles'), s: await pull('w1', 'tbl_skills') };
    const held = { p: live(first.p), s: live(first.s) };
    expect(held.p.has(client) && held.s.has(client) && held.p.has(pinned)).toBe(true);

    // Reassigned away: the worker's stream hears of the clients at once.
    const stream = new StreamReader();
    await stream.open(await t.streamUrl(token.w1 as string));
    await new Promise((r) => setTimeout(r, 150));
    ok(200)(await as('a5', 'POST', '/profile/assign', { clients: [client], to: id.w2 }));
    await stream.next('tbl_profiles', 0, 5000);
    // Unpinned, too.
    ok(200)(await as('w1', 'DELETE', `/caseload/pins/${pinned}`));
    const next = { p: await pull('w1', 'tbl_profiles', first.p.checkpoint), s: await pull('w1', 'tbl_skills', first.s.checkpoint) };
    // The profile pull moved them out: the device is told to pull the records too.
    await stream.next('tbl_skills', 0, 5000);
    stream.close();
    await stream.ended;
    apply(held.p, next.p);
    apply(held.s, next.s);
    for (const gone of [client, pinned]) expect([held.p.has(gone), held.s.has(gone)]).toEqual([false, false]);
    // A removal carries the key only.
    const removal = next.s.documents.find((d) => d.prof_Id === client);
    expect(removal).toMatchObject({ prof_Id: client, _deleted: true });
    expect(removal).not.toHaveProperty('diploma');
    // The new assignee's device gets the client, records included.
    expect(live(await pull('w2', 'tbl_skills')).has(client)).toBe(true);
    // A removed client's keys are gone from the device's by-key pull too.
    const byKey = ok(200)(await as('w1', 'POST', '/sync/tbl_skills/keys', { keys: [client] })).body as Pulled;
    expect(byKey.documents).toEqual([]);
    // Coming back: served again after the removal, at the next pull.
    ok(200)(await as('a5', 'POST', '/profile/assign', { clients: [client], to: id.w1 }));
    const back = await pull('w1', 'tbl_skills', next.s.checkpoint);
    expect(apply(held.s, back).has(client)).toBe(true);
  });

  it('removes a client the worker registered and lost before their next pull from their device, records too', async () => {
    const before = { p: await pull('w1', 'tbl_profiles'), s: await pull('w1', 'tbl_skills') };
    const held = { p: live(before.p), s: live(before.s) };
    // Registered on the worker's device (which holds it from then on) and uploaded; an office
    // worker gives the client to a colleague before the worker's device pulls again.
    const client = await newClient('w1', 'ADC');
    held.p.add(client);
    held.s.add(client);
    ok(200)(await as('a5', 'POST', '/profile/assign', { clients: [client], to: id.w2 }));
    apply(held.p, await pull('w1', 'tbl_profiles', before.p.checkpoint));
    apply(held.s, await pull('w1', 'tbl_skills', before.s.checkpoint));
    expect([held.p.has(client), held.s.has(client)]).toEqual([false, false]);
    expect(live(await pull('w2', 'tbl_profiles')).has(client)).toBe(true);
  });

  it('keeps the nearest clients within the bound (pinned, assigned, then territory) and reports the rest', async () => {
    await t.server.db.query(`UPDATE "tbl_profiles" SET "assignedTo" = NULL WHERE "assignedTo" = $1`, [id.w3]);
    await t.server.db.query(`UPDATE "tbl_profiles" SET "territory" = $1 WHERE "territory" = $2`, [T3, T2]);
    const territory = [];
    for (let i = 0; i < 3; i++) territory.push(await newClient('w1', 'ADC', T2));
    const assigned = [];
    for (let i = 0; i < BOUND - 1; i++) assigned.push(await newClient('w3', 'ADC', T3));
    const pinned = await newClient('w1', 'ADC', T3);
    ok(200)(await as('w3', 'PUT', `/caseload/pins/${pinned}`));
    const user = (await as('a7', 'GET', `/users/${id.w3}`)).body as Body;
    ok(200)(await as('a7', 'PUT', `/users/staff/${id.w3}`, { territories: [T2], updatedAt: user.updatedAt }));
    const held = live(await pull('w3', 'tbl_profiles'));
    // BOUND: the pin, every assigned client; the territory's come after.
    expect([...held].sort()).toEqual([pinned, ...assigned].sort());
    const status = ok(200)(await as('w3', 'GET', '/caseload')).body as { caseload: boolean; figures: Body };
    expect(status.caseload).toBe(true);
    expect(status.figures).toMatchObject({
      clients: BOUND,
      candidates: BOUND + 3,
      overflow: 3,
      bound: BOUND,
      pinned: 1,
      assigned: BOUND - 1,
      territory: 0,
    });
    // Its administrator sees the same; one assigned client less, and the newest of the territory comes in.
    expect((ok(200)(await as('a7', 'GET', `/caseload/users/${id.w3}`)).body as { figures: Body }).figures).toEqual(status.figures);
    ok(200)(await as('a5', 'POST', '/profile/assign', { clients: [assigned[0]], to: id.w1 }));
    const after = live(await pull('w3', 'tbl_profiles'));
    expect(after.has(assigned[0] as string)).toBe(false);
    expect(after.has(territory[2] as string)).toBe(true);
    expect(after.size).toBe(BOUND);
  });

  it("gives a caseload's size, and what a proposed assignment or territory change adds to it", async () => {
    const user = (await as('a7', 'GET', `/users/${id.w2}`)).body as Body;
    ok(200)(await as('a7', 'PUT', `/users/staff/${id.w2}`, { territories: [], updatedAt: user.updatedAt }));
    const status = ok(200)(await as('a5', 'GET', `/caseload/users/${id.w2}`)).body as {
      caseload: boolean;
      figures: Record<string, number>;
    };
    const figures = status.figures;
    const [{ n = 0, orgClients = 0 } = {}] = await t.server.db.query<{ n: number; orgClients: number }>(
      `SELECT count(*) FILTER (WHERE "assignedTo" = $2 OR "prof_Id" IN (SELECT "prof_Id" FROM "caseload_pins" WHERE "userId" = $2))::int AS n,
         count(*)::int AS "orgClients" FROM "tbl_profiles" WHERE "location" = $1 AND "erasedAt" IS NULL`,
      [A, id.w2],
    );
    expect(figures.clients).toBe(Math.min(n, BOUND));
    expect(figures.outside).toBe(orgClients - figures.clients);
    // Rows: each client and its records of the device's tables (here a skills record each).
    const [{ rows = 0 } = {}] = await t.server.db.query<{ rows: number }>(
      `SELECT (SELECT count(*) FROM "tbl_profiles" WHERE "assignedTo" = $1) + (SELECT count(*) FROM "tbl_skills" s JOIN "tbl_profiles" p USING ("prof_Id") WHERE p."assignedTo" = $1) AS rows`,
      [id.w2],
    );
    expect(figures.rows).toBe(Number(rows));
    expect(figures.megabytes).toBeGreaterThan(0);

    const fresh = [await newClient('w1', 'ADC', T2), await newClient('w1', 'ADC', T2)];
    const current = (ok(200)(await as('a5', 'GET', `/caseload/users/${id.w2}`)).body as { figures: unknown }).figures;
    const preview = ok(200)(await as('a5', 'POST', '/caseload/preview', { userId: id.w2, clients: fresh })).body as Record<
      string,
      Record<string, number>
    >;
    expect(preview.added).toMatchObject({ clients: Math.min(2, BOUND - figures.clients), rows: Math.min(2, BOUND - figures.clients) * 2 });
    const byTerritory = ok(200)(await as('a7', 'POST', '/caseload/preview', { userId: id.w2, territories: [T2] })).body as Record<
      string,
      Record<string, number>
    >;
    expect(byTerritory.after.candidates).toBeGreaterThanOrEqual(figures.candidates + 2);
    // A preview changes nothing.
    expect((ok(200)(await as('a5', 'GET', `/caseload/users/${id.w2}`)).body as { figures: unknown }).figures).toEqual(current);
    // Who may see whose: oneself; those who assign, in their organisation.
    expect((await as('w1', 'GET', `/caseload/users/${id.w2}`)).status).toBe(403);
    expect((await as('b5', 'GET', `/caseload/users/${id.w2}`)).status).toBe(404);
    expect((await as('b5', 'POST', '/caseload/preview', { userId: id.w2, territories: [T2] })).status).toBe(404);
    expect(ok(200)(await as('admin', 'GET', `/caseload/users/${id.w2}`)).body.figures).toEqual(current);
  });
  it('counts the organisation only up to a bound: beyond it, the clients not on the device are "more than"', async () => {
    const figures = async () => (ok(200)(await as('w2', 'GET', '/caseload')).body as { figures: Body }).figures;
    const [{ orgClients = 0 } = {}] = await t.server.db.query<{ orgClients: number }>(
      `SELECT count(*)::int AS "orgClients" FROM "tbl_profiles" WHERE "location" = $1 AND "erasedAt" IS NULL`,
      [A],
    );
    const exact = await figures();
    expect(exact).toMatchObject({ outside: orgClients - Number(exact.clients), outsideIsLowerBound: false });
    // The lists' count bound (LIST_COUNT_BOUND) of 1: the organisation is counted up to the
    // caseload's bound and one more, and holds more clients than that.
    expect(orgClients).toBeGreaterThan(BOUND + 1);
    const configured = countBound();
    setCountBound(1);
    try {
      expect(await figures()).toMatchObject({ outside: BOUND + 1 - Number(exact.clients), outsideIsLowerBound: true });
    } finally {
      setCountBound(configured);
    }
  });
});
