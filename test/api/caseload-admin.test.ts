// A worker's territories, set where users are managed (docs/product.md §6.5.1): items of the
// `territory` list only, refused otherwise with the unknown ids named in the caller's language,
// nothing written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/db';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

const A = 2; // 'ADC'
// Items of the seeded `territory` list; UNKNOWN is none.
const T1 = 1;
const T2 = 2;
const UNKNOWN = 987_654;
type Body = Record<string, unknown>;

describe.each(backends)("a worker's territories on %s", (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  const id: Record<string, string> = {};
  const as = (who: string, method: string, path: string, body?: unknown, lang = 'en') =>
    t.api(method, path, { token: token[who], body, headers: { 'accept-language': lang } });

  beforeAll(async () => {
    t = await startTestServer({ backend, roles: 'one' });
    await ensureOrganisations(t.server.db);
    token.admin = await t.login(t.admin.userName, t.admin.password);
    for (const [name, role] of [
      ['w1', 3],
      ['a7', 7],
    ] as const) {
      ({ userId: id[name] as string } = await t.createUser({ userName: `ta-${name}`, password: `password-${name}`, role, location: A }));
      token[name] = await t.login(`ta-${name}`, `password-${name}`);
    }
  }, 120_000);
  afterAll(() => t?.close());

  it('takes territories of the list on create and edit, by role 1 and role 7, and shows them on the user', async () => {
    const created = await as('admin', 'POST', '/users/', {
      userName: 'ta-new',
      fullName: 'New worker',
      password: 'password-new-1',
      role: 3,
      location: A,
      territories: [T1],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.territories).toEqual([T1]);
    const user = (await as('a7', 'GET', `/users/${id.w1}`)).body as Body;
    const edited = await as('a7', 'PUT', `/users/staff/${id.w1}`, { territories: [T1, T2], updatedAt: user.updatedAt });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await as('a7', 'GET', `/users/${id.w1}`)).body.territories).toEqual([T1, T2]);
  });

  it('refuses ids that are not items of the territory list, naming them in the caller’s language, and changes nothing', async () => {
    const before = (await as('a7', 'GET', `/users/${id.w1}`)).body as Body;
    const en = await as('a7', 'PUT', `/users/staff/${id.w1}`, { territories: [T1, UNKNOWN], updatedAt: before.updatedAt });
    expect([en.status, en.body.code]).toEqual([400, 'users.unknownTerritories']);
    expect(en.body.message).toContain(String(UNKNOWN));
    expect(en.body.errors).toEqual([{ field: 'territories', message: en.body.message }]);
    const fr = await as('admin', 'PUT', `/users/${id.w1}`, { territories: [UNKNOWN], updatedAt: before.updatedAt }, 'fr');
    expect([fr.status, fr.body.code]).toEqual([400, 'users.unknownTerritories']);
    expect(fr.body.message).toMatch(/territoires/);
    const create = await as('a7', 'POST', '/users/createStaff', {
      userName: 'ta-bad',
      fullName: 'Bad territory',
      password: 'password-bad-1',
      role: 3,
      territories: [UNKNOWN],
    });
    expect([create.status, create.body.code]).toEqual([400, 'users.unknownTerritories']);
    expect((await as('admin', 'GET', '/users?q=ta-bad')).body.total).toBe(0);
    expect((await as('a7', 'GET', `/users/${id.w1}`)).body).toEqual(before);
    // Not a list of ids at all: the schema's own refusal, never a 500.
    const garbled = await as('a7', 'PUT', `/users/staff/${id.w1}`, { territories: ['north'], updatedAt: before.updatedAt });
    expect(garbled.status).toBe(400);
  });
});
