// Moving a worker's caseload to a colleague (docs/product.md §6.5.1; docs/adr/0017-caseload.md
// "Role 7 moves a worker's caseload"): role 7, who reads no client, names the worker; the
// clients move MAX_ASSIGN at a time, within the organisation, each audited; the user page's
// figures say how many a worker holds and what the move adds to the receiver's device.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { backends } from '../helpers/db';
import { startWithStaff } from '../helpers/api/staff';
import { type TestServer } from '../helpers/server';

const A = 2; // 'ADC'
const B = 3; // 'CAJ'
type Body = Record<string, unknown>;

describe.each(backends)("moving a worker's clients on %s", (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  const id: Record<string, string> = {};
  const as = (who: string, method: string, path: string, body?: unknown) => t.api(method, path, { token: token[who], body });
  const held = async (who: string) =>
    (
      await t.server.db.query<{ prof_Id: string }>(
        `SELECT "prof_Id" FROM "tbl_profiles" WHERE "assignedTo" = $1 AND "erasedAt" IS NULL ORDER BY "prof_Id"`,
        [id[who]],
      )
    ).map((r) => r.prof_Id);

  async function newClient(who: string, abbr: string): Promise<string> {
    const client: Body = { ...sampleBody(entityByName.profile, {}), prof_Reg_No: registrationNumber(abbr) };
    const created = await as(who, 'POST', '/profile/', client);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return String(client.prof_Id);
  }

  /** `count` copies of `client` (same organisation and assignee), written straight to the table. */
  async function copies(client: string, count: number): Promise<void> {
    await t.server.db.query(
      `INSERT INTO "tbl_profiles"
       SELECT (jsonb_populate_record(NULL::"tbl_profiles", to_jsonb(p) || jsonb_build_object(
         'prof_Id', '01900000-0000-7000-9000-' || lpad(n::text, 12, '0'),
         'prof_Reg_No', 'ADC' || lpad(n::text, 8, '0')))).*
       FROM "tbl_profiles" p, generate_series(1, $2::int) AS n WHERE p."prof_Id" = $1`,
      [client, count],
    );
  }

  beforeAll(async () => {
    t = await startWithStaff(
      { backend, roles: 'one' },
      { w1: [3, A], w2: [3, A], w3: [3, A], a7: [7, A], a6: [6, A], b7: [7, B], b3: [3, B] },
      { prefix: 'mv' },
      { token, id },
    );
    [{ userId: id.admin } = { userId: '' }] = await t.server.db.query<{ userId: string }>(
      `SELECT "userId" FROM "users" WHERE "userName" = $1`,
      [t.admin.userName],
    );
  }, 240_000);
  afterAll(() => t?.close());

  it("lets role 7 move its organisation's worker's clients to a colleague, each audited, and no one else's", async () => {
    const clients = [await newClient('w1', 'ADC'), await newClient('w1', 'ADC')].sort();
    // The user page's figures: how many the worker holds; the workers role 7 may choose from.
    expect((await as('a7', 'GET', `/caseload/users/${id.w1}`)).body.assignedClients).toBe(2);
    const workers = (await as('a7', 'GET', '/caseload/workers')).body as { workers: { userId: string }[] };
    expect(workers.workers.map((w) => w.userId).sort()).toEqual([id.w1, id.w2, id.w3].sort());
    expect((await as('a6', 'GET', '/caseload/workers')).status).toBe(403);
    // What the move adds to the receiver's device, before it is made.
    const preview = await as('a7', 'POST', '/caseload/preview', { userId: id.w2, from: id.w1 });
    expect([preview.status, (preview.body.added as Body).clients]).toEqual([200, 2]);

    // Another organisation's administrator: the worker does not exist for them; nothing moves.
    const foreign = await as('b7', 'POST', '/caseload/move', { from: id.w1, to: id.w2 });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'caseload.userNotFound']);
    expect((await as('b7', 'POST', '/caseload/preview', { userId: id.b3, from: id.w1 })).status).toBe(404);
    // A receiver of another organisation, a role that does not work with clients, or the same worker.
    for (const to of [id.b3, id.a6]) {
      const bad = await as('a7', 'POST', '/caseload/move', { from: id.w1, to });
      expect([bad.status, bad.body.code]).toEqual([400, 'caseload.badAssignee']);
    }
    const same = await as('a7', 'POST', '/caseload/move', { from: id.w1, to: id.w1 });
    expect([same.status, same.body.code]).toEqual([400, 'caseload.sameWorker']);
    expect((await as('w1', 'POST', '/caseload/move', { from: id.w1, to: id.w2 })).status).toBe(403);
    expect(await held('w1')).toEqual(clients);

    const moved = await as('a7', 'POST', '/caseload/move', { from: id.w1, to: id.w2 });
    expect([moved.status, moved.body]).toEqual([200, { moved: 2, remaining: 0 }]);
    expect(await held('w1')).toEqual([]);
    expect(await held('w2')).toEqual(clients);
    const entries = (await as('a7', 'GET', '/audit?action=assign&pageSize=100')).body as { rows: Body[] };
    expect(entries.rows.map((e) => [e.recordId, e.userId, e.note]).sort()).toEqual(clients.map((c) => [c, id.a7, `${id.w1} → ${id.w2}`]));
    // Nothing left: a second call moves none.
    expect((await as('a7', 'POST', '/caseload/move', { from: id.w1, to: id.w2 })).body).toEqual({ moved: 0, remaining: 0 });
  });

  it('moves at most 500 clients a call and says how many remain', async () => {
    const first = await newClient('w3', 'ADC');
    await copies(first, 504);
    expect((await as('admin', 'GET', `/caseload/users/${id.w3}`)).body.assignedClients).toBe(505);
    const one = await as('admin', 'POST', '/caseload/move', { from: id.w3, to: id.w1 });
    expect([one.status, one.body]).toEqual([200, { moved: 500, remaining: 5 }]);
    expect((await held('w1')).length).toBe(500);
    expect((await as('a7', 'POST', '/caseload/move', { from: id.w3, to: id.w1 })).body).toEqual({ moved: 5, remaining: 0 });
    expect((await held('w1')).length).toBe(505);
    // One entry per client moved, each by who moved it.
    const [audit] = await t.server.db.query<{ n: number; by: string[] }>(
      `SELECT count(*)::int AS n, array_agg(DISTINCT "userId") AS "by" FROM "audit_log" WHERE "action" = 'assign' AND "recordId" = ANY($1::text[])`,
      [await held('w1')],
    );
    expect(audit).toEqual({ n: 505, by: [id.admin, id.a7].sort() });
  }, 120_000);
});
