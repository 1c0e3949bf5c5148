// A worker's territories, set where users are managed (docs/product.md §6.5.1): items of the
// `territory` list only, refused otherwise with the unknown ids named in the caller's language,
// nothing written. The directory a field worker's device pulls follows them: the providers (with
// their services and trainings) and jobs (with their further positions) of the territories, and
// the worker's own; without territories the organisation's; bounded; a territory change takes
// the entries that left off the device at its next pull.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { entityByName } from '../../schemas/index';
import { backends } from '../helpers/db';
import { ORG_A as A, ORG_B as B, startWithStaff } from '../helpers/api/staff';
import { type TestServer } from '../helpers/server';

const T3 = 3;
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
    t = await startWithStaff({ backend, roles: 'one' }, { w1: [3, A], a7: [7, A] }, { prefix: 'ta' }, { token, id });
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

const BOUND = 4;
type Checkpoint = { updatedAt: string; id: string } | null;
/** The directory's entities on the device: each pulled from its table, its rows known by its key. */
const TABLES = {
  providers: entityByName.serviceProvider,
  services: entityByName.service,
  apprenticeships: entityByName.apprenticeship,
  vocational: entityByName.vocational,
  jobs: entityByName.job,
  otherJobs: entityByName.otherJob,
} as const;
type Table = keyof typeof TABLES;
type Device = Record<Table, { held: Set<string>; checkpoint: Checkpoint; removed: Set<string> }>;

describe.each(backends)("the directory on a field worker's device on %s", (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  const id: Record<string, string> = {};
  const as = (who: string, method: string, path: string, body?: unknown) => t.api(method, path, { token: token[who], body });
  const created = async (who: string, path: string, body: Body): Promise<void> => {
    const r = await as(who, 'POST', path, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  };
  const provider = async (who: string, territory: number) => {
    const body: Body = { ...sampleBody(entityByName.serviceProvider), territory };
    await created(who, '/sproviers/', body);
    return String(body.sp_Id);
  };
  const service = async (who: string, sp: string, territory: number) => {
    const body: Body = { ...sampleBody(entityByName.service, { serviceProvider: sp }), territory };
    await created(who, '/spDetail/', body);
    return String(body.sp_Detail_Id);
  };
  const job = async (who: string, territory: number) => {
    const body: Body = { ...sampleBody(entityByName.job), territory };
    await created(who, '/jobs/', body);
    const other = sampleBody(entityByName.otherJob, { job: String(body.jb_Id) });
    await created(who, '/jobsother/', other);
    return { job: String(body.jb_Id), other: String(other.jb_oth_Id) };
  };
  /** A device's pull of every directory table from its checkpoints (pages of 3). */
  const sync = async (who: string, device: Device) => {
    for (const name of Object.keys(TABLES) as Table[]) {
      const { table, key } = TABLES[name];
      const state = device[name];
      state.removed = new Set();
      for (;;) {
        const at = state.checkpoint;
        const query = at ? `?limit=3&updatedAt=${encodeURIComponent(at.updatedAt)}&id=${encodeURIComponent(at.id)}` : '?limit=3';
        const page = await as(who, 'GET', `/sync/${table}${query}`);
        expect(page.status, JSON.stringify(page.body)).toBe(200);
        const { documents, checkpoint } = page.body as { documents: Body[]; checkpoint: Checkpoint };
        for (const row of documents) {
          if (row._deleted) {
            if (state.held.delete(String(row[key]))) state.removed.add(String(row[key]));
          } else state.held.add(String(row[key]));
        }
        state.checkpoint = checkpoint;
        if (documents.length < 3) break;
      }
    }
    return device;
  };
  const newDevice = (): Device =>
    Object.fromEntries(
      (Object.keys(TABLES) as Table[]).map((n) => [n, { held: new Set(), checkpoint: null, removed: new Set() }]),
    ) as Device;
  const held = (device: Device) =>
    Object.fromEntries((Object.keys(TABLES) as Table[]).map((n) => [n, [...device[n].held].sort()])) as Record<Table, string[]>;
  const sorted = (...keys: string[]) => [...keys].sort();
  const setTerritories = async (who: string, territories: number[]) => {
    const user = (await as('a7', 'GET', `/users/${id[who]}`)).body as Body;
    const r = await as('a7', 'PUT', `/users/staff/${id[who]}`, { territories, updatedAt: user.updatedAt });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };

  beforeAll(async () => {
    t = await startWithStaff(
      { backend, roles: 'one', config: { caseloadBound: BOUND } },
      { w1: [3, A], a5: [5, A], a7: [7, A], b5: [5, B] },
      { prefix: 'dir' },
      { token, id },
    );
  }, 120_000);
  afterAll(() => t?.close());

  it("follows the worker's territories, keeps the organisation's without them, stays within the bound, and takes leaving entries off the device", async () => {
    // The organisation's directory: P1 in T1; P2 in T2; P3 in T2 offering a service in T1; the
    // worker's own P4 in T3; jobs in T1 and T2; another organisation's provider in T1.
    const p1 = await provider('a5', T1);
    const s1 = await service('a5', p1, T1);
    const ap1 = String((await as('a5', 'POST', '/appr/', sampleBody(entityByName.apprenticeship, { service: s1 }))).body.appr_Id);
    const p2 = await provider('a5', T2);
    const s2 = await service('a5', p2, T2);
    const v2 = String((await as('a5', 'POST', '/vocTrain/', sampleBody(entityByName.vocational, { service: s2 }))).body.voc_Id);
    const p3 = await provider('a5', T2);
    const s3 = await service('a5', p3, T1);
    const p4 = await provider('w1', T3);
    const j1 = await job('a5', T1);
    const j2 = await job('a5', T2);
    await provider('b5', T1);
    expect([ap1, v2].every((k) => k.length > 30)).toBe(true);

    // No territories: the organisation's directory, as before.
    const device = await sync('w1', newDevice());
    expect(held(device)).toEqual({
      providers: sorted(p1, p2, p3, p4),
      services: sorted(s1, s2, s3),
      apprenticeships: [ap1],
      vocational: [v2],
      jobs: sorted(j1.job, j2.job),
      otherJobs: sorted(j1.other, j2.other),
    });

    // T1: its entries, the provider offering a service there, the worker's own; T2's leave
    // with their records at the next pull.
    await setTerritories('w1', [T1]);
    await sync('w1', device);
    expect(held(device)).toEqual({
      providers: sorted(p1, p3, p4),
      services: sorted(s1, s3),
      apprenticeships: [ap1],
      vocational: [],
      jobs: [j1.job],
      otherJobs: [j1.other],
    });
    expect(
      [...device.providers.removed, ...device.services.removed, ...device.vocational.removed, ...device.otherJobs.removed].sort(),
    ).toEqual(sorted(p2, s2, v2, j2.other));
    // A fresh device of the worker pulls the same; an office device still the organisation's.
    expect(held(await sync('w1', newDevice()))).toEqual(held(device));
    expect(held(await sync('a5', newDevice())).providers).toEqual(sorted(p1, p2, p3, p4));

    // T1 → T2: T1's entries leave, T2's come back with their records, whatever their age.
    await setTerritories('w1', [T2]);
    await sync('w1', device);
    expect(held(device)).toEqual({
      providers: sorted(p2, p3, p4),
      services: sorted(s2, s3),
      apprenticeships: [],
      vocational: [v2],
      jobs: [j2.job],
      otherJobs: [j2.other],
    });
    expect(device.providers.removed).toEqual(new Set([p1]));

    // The bound: at most BOUND providers, the worker's own first, then newest first.
    const p5 = await provider('a5', T2);
    const p6 = await provider('a5', T2);
    await sync('w1', device);
    expect(held(device).providers).toEqual(sorted(p3, p4, p5, p6));
    expect(held(device).services).toEqual([s3]);
    expect(device.vocational.removed).toEqual(new Set([v2]));

    // Territories cleared: the organisation's again (within the bound).
    await setTerritories('w1', []);
    await sync('w1', device);
    expect(held(device).providers).toEqual(sorted(p3, p4, p5, p6));
    expect(held(device).jobs).toEqual(sorted(j1.job, j2.job));
    expect(held(device).otherJobs).toEqual(sorted(j1.other, j2.other));
  });
});
