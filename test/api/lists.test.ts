// Lookup lists over HTTP (product.md §7 "Lists"): seeding once, GET /lists, the profilelist shape,
// PUT (ids stay) and POST (next id), with validation, 401, 403 per role, 404 and 409.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUP_KEYS } from '../../schemas/define';
import type { LookupItem } from '../../schemas/index';
import { ROLES, type Role } from '../../schemas/roles';
import { buildApp } from '../../server/app';
import { seedLookupLists } from '../../server/plugins/lists/index';
import { seedLists } from '../../server/seed/lists';
import { backends } from '../helpers/db';
import { startTestServer, type TestServer } from '../helpers/server';

const PASSWORD = 'password-123';
const UNKNOWN_ID = '01890a5d-ac96-774b-bcce-b302099a8057';

type Item = LookupItem;
interface ListRow {
  id: string;
  key: string;
  items: Item[];
  updatedAt: string;
}

type Answer = Awaited<ReturnType<TestServer['api']>>;

describe.each(backends)('lists API on %s', (backend) => {
  let t: TestServer;
  const tokens = {} as Record<Role, string>;

  const stored = async (key: string) =>
    (await t.server.db.query<{ id: string; items: Item[] }>('SELECT "id", "items" FROM "lists" WHERE "key" = $1', [key]))[0];
  const listCount = async () => (await t.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "lists"'))[0].n;

  beforeAll(async () => {
    t = await startTestServer({ backend });
    tokens[1] = await t.login(t.admin.userName, t.admin.password);
    for (const role of ROLES.filter((r) => r !== 1)) {
      await t.createUser({ userName: `lists${role}`, password: PASSWORD, role, location: 2 });
      tokens[role] = await t.login(`lists${role}`, PASSWORD);
    }
  });
  afterAll(() => t?.close());

  describe('seeding', () => {
    it('fills every lookup list once, in French and English', async () => {
      expect(await listCount()).toBe(seedLists.length);
      const keys = (await t.server.db.query<{ key: string }>('SELECT "key" FROM "lists" ORDER BY "key"')).map((r) => r.key);
      expect(keys).toEqual([...LOOKUP_KEYS].sort());
      const organisations = await stored('organisation');
      expect(organisations.items[0]).toMatchObject({ id: 1, active: true, abbr: 'ICRS' });
    });

    it('never doubles a list, even when two starts seed together', async () => {
      const before = await t.server.db.query('SELECT "id", "key", "updatedAt" FROM "lists" ORDER BY "key"');
      expect(await seedLookupLists(t.server.db)).toEqual([]);
      expect(await Promise.all([seedLookupLists(t.server.db), seedLookupLists(t.server.db)])).toEqual([[], []]);
      expect(await t.server.db.query('SELECT "id", "key", "updatedAt" FROM "lists" ORDER BY "key"')).toEqual(before);
    });

    it('adds back a missing list only, leaving the others as edited', async () => {
      const { id } = await stored('vocField');
      await t.server.db.query('DELETE FROM "lists" WHERE "key" = $1', ['vocField']);
      expect(await seedLookupLists(t.server.db)).toEqual(['vocField']);
      expect(await listCount()).toBe(seedLists.length);
      expect((await stored('vocField')).id).not.toBe(id);
    });

    it.runIf(backend === 'postgres')('does not double the lists when a second server starts on the same database', async () => {
      const second = await buildApp({ ...t.config, databaseUrl: t.config.databaseUrl });
      await second.app.ready();
      await second.app.close();
      expect(await listCount()).toBe(seedLists.length);
    });
  });

  // ---------------------------------------------------------------------------------------

  interface Gate {
    name: string;
    allowed: readonly Role[];
    call: (token?: string) => Promise<Answer>;
  }
  const gates: Gate[] = [
    { name: 'GET /lists', allowed: ROLES, call: (token) => t.api('GET', '/lists', { token }) },
    { name: 'GET /lists/profilelist', allowed: ROLES, call: (token) => t.api('GET', '/lists/profilelist', { token }) },
    {
      name: 'PUT /lists/{id}',
      allowed: [1],
      call: async (token) => {
        const { id, items } = await stored('sector');
        return t.api('PUT', `/lists/${id}`, { token, body: { items: items.map((i) => ({ ...i, fr: `${i.fr} (gate)` })) } });
      },
    },
    {
      name: 'POST /lists/{id}',
      allowed: [1],
      call: async (token) => t.api('POST', `/lists/${(await stored('sector')).id}`, { token, body: { fr: 'Porte', en: 'Gate' } }),
    },
  ];
  const refusals = gates.flatMap((gate) =>
    ROLES.filter((role) => !gate.allowed.includes(role)).map((role) => [gate.name, role, gate] as const),
  );

  it.each(refusals)('%s refuses role %i with 403 and writes nothing', async (_name, role, gate) => {
    const before = await stored('sector');
    const { status, body } = await gate.call(tokens[role]);
    expect(status).toBe(403);
    expect(body.message).toBe('You are not allowed to do this');
    expect(await stored('sector')).toEqual(before);
  });

  it.each(gates.map((gate) => [gate.name, gate] as const))('%s needs a token (401)', async (_name, gate) => {
    const before = await stored('sector');
    const { status } = await gate.call(undefined);
    expect(status).toBe(401);
    expect(await stored('sector')).toEqual(before);
  });

  // ---------------------------------------------------------------------------------------

  describe('GET /lists', () => {
    it.each(ROLES)('gives role %i every list with all its items', async (role) => {
      const { status, body } = await t.api('GET', '/lists', { token: tokens[role] });
      expect(status).toBe(200);
      expect(body.map((l: ListRow) => l.key)).toEqual([...LOOKUP_KEYS].sort());
      const territory = body.find((l: ListRow) => l.key === 'territory');
      expect(territory).toMatchObject({ id: expect.any(String), updatedAt: expect.any(String) });
      expect(territory.items[0]).toMatchObject({ id: 1, fr: 'Goma', en: 'Goma', active: true, lat: expect.any(Number) });
    });
  });

  describe('GET /lists/profilelist', () => {
    it.each(ROLES)('gives role %i one object keyed by list key, with active items only', async (role) => {
      const { status, body } = await t.api('GET', '/lists/profilelist', { token: tokens[role] });
      expect(status).toBe(200);
      expect(Object.keys(body).sort()).toEqual([...LOOKUP_KEYS].sort());
      for (const items of Object.values(body) as Item[][]) {
        expect(items.length).toBeGreaterThan(0);
        expect(items.every((item) => item.active && typeof item.id === 'number' && item.fr && item.en)).toBe(true);
      }
      expect(body.serviceType[0]).toMatchObject({ parent: 1 });
      expect(body.organisation.every((item: Item) => /^[A-Z0-9]+$/.test(item.abbr ?? ''))).toBe(true);
    });

    it('leaves out a deactivated item that GET /lists still shows', async () => {
      const { id, items } = await stored('skill');
      const edited = items.map((item) => (item.id === 2 ? { ...item, active: false } : item));
      expect((await t.api('PUT', `/lists/${id}`, { token: tokens[1], body: { items: edited } })).status).toBe(200);
      const profile = await t.api('GET', '/lists/profilelist', { token: tokens[4] });
      expect(profile.body.skill.map((i: Item) => i.id)).not.toContain(2);
      const all = await t.api('GET', '/lists', { token: tokens[4] });
      expect(all.body.find((l: ListRow) => l.key === 'skill').items.find((i: Item) => i.id === 2).active).toBe(false);
    });
  });

  describe('PUT /lists/{id}', () => {
    it('replaces the items, keeping every id, and records who did it', async () => {
      const { id, items } = await stored('trade');
      const next = [
        ...items.map((item) => (item.id === 1 ? { ...item, fr: 'Maçon qualifié', en: 'Skilled mason' } : item)),
        { id: 50, fr: 'Plombier', en: 'Plumber', active: true },
      ];
      const { status, body } = await t.api('PUT', `/lists/${id}`, { token: tokens[1], body: { items: next } });
      expect(status).toBe(200);
      expect(body.items).toEqual(next);
      expect(body).toMatchObject({ id, key: 'trade', updatedBy: expect.any(String) });
      expect((await stored('trade')).items).toEqual(next);
    });

    it('takes back unchanged what GET /lists gave (territory centres included)', async () => {
      const territory = (await t.api('GET', '/lists', { token: tokens[1] })).body.find((l: ListRow) => l.key === 'territory');
      const { status, body } = await t.api('PUT', `/lists/${territory.id}`, {
        token: tokens[1],
        body: { items: territory.items, updatedAt: territory.updatedAt },
      });
      expect(status).toBe(200);
      expect(body.items).toEqual(territory.items);
    });

    it('refuses to drop an item: deactivate it instead', async () => {
      const { id, items } = await stored('educationLevel');
      const { status, body } = await t.api('PUT', `/lists/${id}`, { token: tokens[1], body: { items: items.slice(2) } });
      expect(status).toBe(400);
      expect(body.message).toBe('Items cannot be removed, deactivate them instead (missing ids: 1, 2)');
      expect(body.errors).toEqual([{ field: 'items', message: body.message }]);
      expect((await stored('educationLevel')).items).toEqual(items);
    });

    it('refuses an id used twice', async () => {
      const { id, items } = await stored('educationLevel');
      const { status, body } = await t.api('PUT', `/lists/${id}`, {
        token: tokens[1],
        body: { items: [...items, { ...items[0], fr: 'Autre' }] },
      });
      expect(status).toBe(400);
      expect(body.message).toBe('Item id 1 appears more than once');
      expect((await stored('educationLevel')).items).toEqual(items);
    });

    it('refuses an item without its English label, with the field message', async () => {
      const { id, items } = await stored('educationLevel');
      const { en: _en, ...noEnglish } = items[0];
      const { status, body } = await t.api('PUT', `/lists/${id}`, { token: tokens[1], body: { items: [noEnglish, ...items.slice(1)] } });
      expect(status).toBe(400);
      expect(body.errors).toEqual([{ field: 'items.0.en', message: 'items.0.en is required' }]);
      expect((await stored('educationLevel')).items).toEqual(items);
    });

    it('answers 409 conflict to an edit based on an older version', async () => {
      const list = (await t.api('GET', '/lists', { token: tokens[1] })).body.find((l: ListRow) => l.key === 'orgHelp');
      const renamed = list.items.map((i: Item) => (i.id === 1 ? { ...i, en: 'Starter kit' } : i));
      expect((await t.api('PUT', `/lists/${list.id}`, { token: tokens[1], body: { items: renamed } })).status).toBe(200);
      const late = await t.api('PUT', `/lists/${list.id}`, { token: tokens[1], body: { items: list.items, updatedAt: list.updatedAt } });
      expect(late.status).toBe(409);
      expect(late.body.message).toBe('conflict');
      expect((await stored('orgHelp')).items[0].en).toBe('Starter kit');
    });

    it('answers 404 to an unknown list and 400 to a malformed id', async () => {
      const unknown = await t.api('PUT', `/lists/${UNKNOWN_ID}`, { token: tokens[1], body: { items: [] } });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('No record with this id');
      expect((await t.api('PUT', '/lists/territory', { token: tokens[1], body: { items: [] } })).status).toBe(400);
    });
  });

  describe('POST /lists/{id}', () => {
    it('adds an active item with the next id', async () => {
      const { id, items } = await stored('organisation');
      const highest = Math.max(...items.map((i) => i.id));
      const { status, body } = await t.api('POST', `/lists/${id}`, {
        token: tokens[1],
        body: { fr: 'Association des Jeunes Artisans', en: 'Young Craftspeople Association', abbr: 'AJA' },
      });
      expect(status).toBe(201);
      expect(body.items).toHaveLength(items.length + 1);
      expect(body.items.at(-1)).toEqual({
        id: highest + 1,
        fr: 'Association des Jeunes Artisans',
        en: 'Young Craftspeople Association',
        abbr: 'AJA',
        active: true,
      });
      const profile = await t.api('GET', '/lists/profilelist', { token: tokens[3] });
      expect(profile.body.organisation.map((i: Item) => i.abbr)).toContain('AJA');
    });

    it('never reuses the id of a deactivated last item', async () => {
      const { id, items } = await stored('sector');
      const last = Math.max(...items.map((i) => i.id));
      const edited = items.map((i) => (i.id === last ? { ...i, active: false } : i));
      expect((await t.api('PUT', `/lists/${id}`, { token: tokens[1], body: { items: edited } })).status).toBe(200);
      const { body } = await t.api('POST', `/lists/${id}`, { token: tokens[1], body: { fr: 'Énergie', en: 'Energy' } });
      expect(body.items.at(-1).id).toBe(last + 1);
    });

    it('answers 409 duplicate entry to a label or abbreviation already in the list', async () => {
      const { id, items } = await stored('organisation');
      for (const body of [
        { fr: 'CENTRE d’Appui aux Jeunes ', en: 'Other' },
        { fr: 'Autre', en: 'youth support centre' },
        { fr: 'Autre', en: 'Other', abbr: 'CAJ' },
      ]) {
        const answer = await t.api('POST', `/lists/${id}`, { token: tokens[1], body });
        expect(answer.status).toBe(409);
        expect(answer.body.message).toBe('duplicate entry');
      }
      expect((await stored('organisation')).items).toEqual(items);
    });

    it('refuses an item without English or with a bad abbreviation, writing nothing', async () => {
      const { id, items } = await stored('category');
      const { status, body } = await t.api('POST', `/lists/${id}`, { token: tokens[1], body: { fr: 'Culture', abbr: 'ab c' } });
      expect(status).toBe(400);
      expect(body.errors).toEqual(
        expect.arrayContaining([
          { field: 'en', message: 'en is required' },
          { field: 'abbr', message: 'abbr is not valid' },
        ]),
      );
      expect((await stored('category')).items).toEqual(items);
    });

    it('answers 404 to an unknown list', async () => {
      const { status } = await t.api('POST', `/lists/${UNKNOWN_ID}`, { token: tokens[1], body: { fr: 'X', en: 'X' } });
      expect(status).toBe(404);
    });
  });
});
