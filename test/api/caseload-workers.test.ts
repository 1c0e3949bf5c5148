// The client screens' caseload calls (docs/api.md "Caseload"): who a client may be assigned to
// (the "Assigned to …" filter and the assignment's picker) and the caller's own pins (a client's
// page says "Keep on this device" or "Remove from this device").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { backends } from '../helpers/db';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

const A = 2; // 'ADC'
const B = 3; // 'CAJ'
type Body = Record<string, unknown>;
interface Workers {
  workers: { userId: string; name: string; location: number; caseload: boolean }[];
}

describe.each(backends)('the caseload workers and pins on %s', (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  const id: Record<string, string> = {};
  const as = (who: string, method: string, path: string, body?: unknown) => t.api(method, path, { token: token[who], body });

  beforeAll(async () => {
    t = await startTestServer({ backend, roles: 'one' });
    await ensureOrganisations(t.server.db);
    token.admin = await t.login(t.admin.userName, t.admin.password);
    for (const [name, role, location, fullName] of [
      ['w1', 3, A, 'Zoé Worker'],
      ['w2', 3, A, 'Amadou Field'],
      ['a5', 5, A, 'Office Five'],
      ['a6', 6, A, 'Provider Six'],
      ['a7', 7, A, 'Admin Seven'],
      ['off', 3, A, 'Gone Worker'],
      ['b3', 3, B, 'Other Org'],
    ] as const) {
      ({ userId: id[name] as string } = await t.createUser({
        userName: `wk-${name}`,
        password: `password-${name}`,
        role,
        location,
        fullName,
      }));
      if (name !== 'off') token[name] = await t.login(`wk-${name}`, `password-${name}`);
    }
    await t.server.db.query(`UPDATE "users" SET "active" = false WHERE "userId" = $1`, [id.off]);
  }, 120_000);
  afterAll(() => t?.close());

  it("lists the active users of the caller's organisation who work with clients, by name", async () => {
    const seen = await as('w1', 'GET', '/caseload/workers');
    expect(seen.status).toBe(200);
    const { workers } = seen.body as unknown as Workers;
    const ids = workers.map((w) => w.userId);
    // Roles 6 and 7 read no clients, an inactive user is no one's worker, another organisation's
    // users are not listed.
    for (const who of ['w1', 'w2', 'a5']) expect(ids).toContain(id[who]);
    for (const who of ['a6', 'a7', 'off', 'b3']) expect(ids).not.toContain(id[who]);
    expect(workers.every((w) => w.location === A)).toBe(true);
    // Whose devices mirror a caseload: the field workers.
    expect(
      workers
        .filter((w) => w.caseload)
        .map((w) => w.userId)
        .sort(),
    ).toEqual([id.w1, id.w2].sort());
    const names = workers.map((w) => w.name);
    expect(names.indexOf('Amadou Field')).toBeLessThan(names.indexOf('Zoé Worker'));
    // Role 1 without an organisation: every organisation's, each with its own.
    const all = (await as('admin', 'GET', '/caseload/workers')).body as unknown as Workers;
    expect(all.workers.find((w) => w.userId === id.b3)?.location).toBe(B);
    // Roles that read no clients are refused.
    expect((await as('a6', 'GET', '/caseload/workers')).status).toBe(403);
  });

  it("answers the caller's own pins", async () => {
    const client: Body = { ...sampleBody(entityByName.profile, {}), prof_Reg_No: registrationNumber('ADC') };
    expect((await as('w2', 'POST', '/profile/', client)).status).toBe(201);
    const profId = String(client.prof_Id);
    expect((await as('w1', 'GET', '/caseload/pins')).body).toEqual({ pins: [] });
    expect((await as('w1', 'PUT', `/caseload/pins/${profId}`)).status).toBe(200);
    expect((await as('w1', 'GET', '/caseload/pins')).body).toEqual({ pins: [profId] });
    // Another user's pins are theirs.
    expect((await as('a5', 'GET', '/caseload/pins')).body).toEqual({ pins: [] });
    expect((await as('w1', 'DELETE', `/caseload/pins/${profId}`)).status).toBe(200);
    expect((await as('w1', 'GET', '/caseload/pins')).body).toEqual({ pins: [] });
  });
});
