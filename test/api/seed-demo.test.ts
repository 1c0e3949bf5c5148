// The demo seed (npm run seed:demo): the promised amounts, rows valid against the entity
// definitions, consistent lookups and places, and figures the stats calls agree with.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityByName, type EntityShape } from '../../schemas/index';
import { rowSchema } from '../../schemas/derive/json-schema';
import { isRegistrationNumber } from '../../schemas/ids';
import { seedLists } from '../../server/seed/lists';
import { buildDemoRows, DEMO_ENTITIES, parseArgs, PER_SCALE, seedDemo, type DemoSummary } from '../../server/seed/demo';
import { backends } from '../helpers/db';
import { selectList } from '../../server/lib/records';
import { startTestServer, type TestServer } from '../helpers/server';

const SCALE = 0.2;
const itemsOf = (key: string) => seedLists.find((l) => l.key === key)?.items ?? [];

describe('demo rows (no database)', () => {
  it('scales linearly', () => {
    const one = buildDemoRows({ scale: 1 });
    const three = buildDemoRows({ scale: 3 });
    for (const [name, base] of Object.entries(PER_SCALE)) {
      expect(one[name as keyof typeof PER_SCALE]).toHaveLength(base);
      expect(three[name as keyof typeof PER_SCALE]).toHaveLength(3 * base);
    }
    expect(one.skills).toHaveLength(200);
    expect(one.business).toHaveLength(100);
    expect(one.otherJob).toHaveLength(20);
  });

  it('is reproducible from its seed, keys and registration numbers aside', () => {
    const strip = (rows: Record<string, unknown>[]) => rows.map(({ sp_Id: _id, ...rest }) => rest);
    const a = buildDemoRows({ scale: 0.1, seed: 7, now: Date.UTC(2025, 0, 1) });
    const b = buildDemoRows({ scale: 0.1, seed: 7, now: Date.UTC(2025, 0, 1) });
    expect(strip(a.serviceProvider)).toEqual(strip(b.serviceProvider));
  });

  it('reads --scale and --seed and refuses anything else', () => {
    expect(parseArgs([])).toEqual({ scale: 1, seed: undefined });
    expect(parseArgs(['--scale', '2.5', '--seed=9'])).toEqual({ scale: 2.5, seed: 9 });
    expect(() => parseArgs(['--scale', '0'])).toThrow(/--scale/);
    expect(() => parseArgs(['--scale', 'many'])).toThrow(/--scale/);
    expect(() => parseArgs(['--size', '2'])).toThrow(/unknown argument/);
  });
});

describe.each(backends)('demo seed on %s', (backend) => {
  let t: TestServer;
  let summary: DemoSummary;
  let adminId: string;
  const rows = (table: string) => t.server.db.query(`SELECT * FROM "${table}"`);

  beforeAll(async () => {
    t = await startTestServer({ backend });
    const [admin] = await t.server.db.query<{ userId: string }>(`SELECT "userId" FROM "users" WHERE "role" = 1`);
    adminId = admin.userId;
    summary = await seedDemo(t.server.db, { scale: SCALE, createdBy: adminId });
  }, 120_000);
  afterAll(() => t?.close());

  it('inserts the promised amounts', async () => {
    expect(summary).toMatchObject({
      serviceProvider: 10,
      service: 30,
      job: 16,
      otherJob: 4,
      profile: 40,
      skills: 40,
      social: 40,
      security: 40,
      business: 20,
      referral: 30,
      jobReferral: 12,
    });
    expect(summary.apprenticeship).toBeGreaterThan(0);
    expect(summary.vocational).toBeGreaterThan(0);
    for (const name of DEMO_ENTITIES) {
      const [{ n }] = await t.server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${entityByName[name].table}"`);
      expect(n, name).toBe(summary[name]);
    }
  });

  it('finds or seeds the lookup lists it needs', async () => {
    const keys = (await rows('lists')).map((l) => l.key);
    expect(keys.sort()).toEqual(seedLists.map((l) => l.key).sort());
  });

  it('writes only rows valid against their entity row schema', async () => {
    const ajv = new Ajv({ allErrors: true, strict: true });
    addFormats(ajv);
    for (const name of DEMO_ENTITIES) {
      const entity: EntityShape = entityByName[name];
      const validate = ajv.compile(rowSchema(entity));
      // The columns an answer carries (hidden ones, as a client's erasure mark, stay on the server).
      const stored = JSON.parse(
        JSON.stringify(await t.server.db.query(`SELECT ${selectList(entity)} FROM "${entity.table}"`)),
      ) as unknown[];
      for (const row of stored) expect(validate(row), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });

  it('gives services a type of their own category, and offers to the right service types', async () => {
    const parents = new Map(itemsOf('serviceType').map((t) => [t.id, t.parent]));
    const services = await rows('tbl_sp_detail');
    for (const s of services) expect(parents.get(s.serviceType as number), String(s.name)).toBe(s.category);
    const [mismatch] = await t.server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "tbl_sp_detail" s JOIN "lists" l ON l."key" = 'serviceType'
       CROSS JOIN LATERAL jsonb_array_elements(l."items") e WHERE (e->>'id')::int = s."serviceType" AND (e->>'parent')::int <> s."category"`,
    );
    expect(mismatch.n).toBe(0);
    const typeOf = new Map(services.map((s) => [s.sp_Detail_Id, s.serviceType]));
    for (const a of await rows('tbl_apprship')) expect(typeOf.get(a.sp_d_Id)).toBe(5);
    for (const v of await rows('tbl_voc_train')) expect(typeOf.get(v.sp_d_Id)).toBe(6);
  });

  it('covers all four provider types and the three verification states', async () => {
    const types = await t.server.db.query<{ v: number }>(`SELECT DISTINCT "sp_type" AS v FROM "tbl_serviceprovider" ORDER BY 1`);
    expect(types.map((r) => r.v)).toEqual([1, 2, 3, 4]);
    const statuses = await t.server.db.query<{ v: number }>(`SELECT DISTINCT "status" AS v FROM "tbl_sp_detail" ORDER BY 1`);
    expect(statuses.map((r) => r.v)).toEqual([0, 1, 2]);
    const [verified] = await t.server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "tbl_sp_detail" WHERE "status" > 0 AND "verifiedBy" = $1`,
      [adminId],
    );
    expect(verified.n).toBeGreaterThan(0);
  });

  it('places records near the centre of their territory', async () => {
    const centres = new Map(itemsOf('territory').map((t) => [t.id, t]));
    for (const table of ['tbl_serviceprovider', 'available-jobs']) {
      for (const row of await rows(table)) {
        if (row.lat === null) continue;
        const centre = centres.get(row.territory as number);
        expect(Math.abs((row.lat as number) - (centre?.lat ?? 99))).toBeLessThanOrEqual(0.15);
        expect(Math.abs((row.lng as number) - (centre?.lng ?? 99))).toBeLessThanOrEqual(0.15);
      }
    }
  });

  it('gives clients registration numbers of their organisation and all their records', async () => {
    const abbr = new Map(itemsOf('organisation').map((o) => [o.id, o.abbr]));
    for (const p of await rows('tbl_profiles')) expect(isRegistrationNumber(p.prof_Reg_No, abbr.get(p.location as number))).toBe(true);
    const [orphans] = await t.server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "tbl_profiles" p WHERE NOT EXISTS (SELECT 1 FROM "tbl_skills" s WHERE s."prof_Id" = p."prof_Id")
         OR NOT EXISTS (SELECT 1 FROM "tbl_profiles_social" s WHERE s."prof_Id" = p."prof_Id")
         OR NOT EXISTS (SELECT 1 FROM "tbl_profiles_sec" s WHERE s."prof_Id" = p."prof_Id")`,
    );
    expect(orphans.n).toBe(0);
  });

  it('feeds the dashboard: the stats calls count what was seeded', async () => {
    const token = await t.login(t.admin.userName, t.admin.password);
    const gen = await t.api('GET', '/stats/gen', { token });
    expect(gen.body).toEqual({ profiles: 40, referrals: 30, sProviders: 10, services: 30, jobs: 16 });
    const geo = await t.api('GET', '/stats/geo', { token });
    const [jobs, ...providersByType] = geo.body.counts as number[];
    expect(jobs).toBeGreaterThan(0);
    expect(providersByType.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(geo.body.points).toHaveLength(geo.body.counts.reduce((a: number, b: number) => a + b, 0));
  });
});
