// The stats calls of product.md §7 over HTTP, on a small fixture whose every figure is known:
// soft-deleted services and providers are left out, jobs count open or closed, the map shows
// open jobs only, the main category comes from the service type's parent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/index';
import { seedLookupLists } from '../../server/plugins/lists/index';
import { statsIndexes } from '../../server/plugins/stats/index';
import { backends } from '../helpers/db';
import { startTestServer, type TestServer } from '../helpers/server';

type Row = Record<string, unknown>;
type MarkerPoint = [string, number, number, number];

/** Points in id order (the answer's order is the database's). */
const byId = (points: MarkerPoint[]) => [...points].sort((a, b) => a[0].localeCompare(b[0]));

const id = (n: number) => `01900000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const at = (day: string) => `${day}T12:00:00.000Z`;

// Providers: P1 social (Goma), P2 legal (Nyiragongo, no address), P3 education (no
// coordinates), P4 economic but soft-deleted. P1 belongs to organisation 1, P2 to 2, the
// others to none (rows older than the organisation scope).
const P1 = id(1),
  P2 = id(2),
  P3 = id(3),
  P4 = id(4);
const providers: Row[] = [
  {
    sp_Id: P1,
    sp_Name: 'Centre de santé Himbi',
    sp_type: 1,
    sp_Address: 'Avenue du Lac 12',
    territory: 1,
    lat: -1.68,
    lng: 29.22,
    location: 1,
    createdAt: at('2024-01-05'),
  },
  {
    sp_Id: P2,
    sp_Name: 'Clinique juridique',
    sp_type: 3,
    sp_Address: null,
    territory: 2,
    lat: -1.5,
    lng: 29.25,
    location: 2,
    createdAt: at('2024-01-06'),
  },
  { sp_Id: P3, sp_Name: 'Institut technique', sp_type: 4, sp_Address: 'Route de Sake', territory: 1, createdAt: at('2024-01-07') },
  { sp_Id: P4, sp_Name: 'Coopérative fermée', sp_type: 2, territory: 3, lat: -1.2, lng: 29.4, deleted: true, createdAt: at('2024-01-08') },
];

const service = (
  n: number,
  sp_Id: string,
  category: number,
  serviceType: number,
  territory: number,
  status: number,
  day: string,
  deleted = false,
): Row => ({
  sp_Detail_Id: id(100 + n),
  sp_Id,
  name: `Service ${n}`,
  category,
  serviceType,
  territory,
  status,
  deleted,
  createdAt: at(day),
});

const services: Row[] = [
  service(1, P1, 1, 1, 1, 1, '2024-01-15'),
  service(2, P1, 1, 1, 1, 0, '2024-02-15'),
  service(3, P2, 4, 10, 2, 2, '2024-03-15'),
  service(4, P3, 2, 5, 1, 0, '2024-03-20'),
  service(5, P3, 1, 7, 1, 1, '2024-04-01'), // its type (job placement) belongs to category 3
  service(6, P1, 1, 1, 1, 0, '2024-04-02', true), // soft-deleted
  service(7, P4, 3, 8, 3, 0, '2024-04-03'), // provider soft-deleted
  service(8, P2, 4, 99, 2, 1, '2024-05-01'), // type 99 has no parent: main category = its own
];

const J1 = id(201),
  J2 = id(202),
  J3 = id(203);
const job = (jb_Id: string, sector: number, territory: number, open: boolean, positions: number, coords: boolean, day: string): Row => ({
  jb_Id,
  title: `Job ${jb_Id.slice(-1)}`,
  employer: 'Hôtel Lac Kivu',
  sector,
  territory,
  open,
  positions,
  address: `Adresse ${jb_Id.slice(-1)}`,
  ...(coords ? { lat: -1.6, lng: 29.2 } : {}),
  createdAt: at(day),
});
const jobs: Row[] = [
  job(J1, 1, 1, true, 3, true, '2024-04-10'),
  job(J2, 1, 2, false, 5, true, '2024-04-11'),
  job(J3, 3, 1, true, 1, false, '2024-04-12'),
];
const otherJobs: Row[] = [
  { jb_oth_Id: id(301), jb_Id: J1, title: 'Aide-cuisinier', positions: 2 },
  { jb_oth_Id: id(302), jb_Id: J2, title: 'Gardien', positions: 4 },
];

const C1 = id(401),
  C2 = id(402),
  C3 = id(403),
  C4 = id(404);
const profile = (prof_Id: string, territory: number, location: number | null): Row => ({
  prof_Id,
  prof_Reg_No: `ADC${prof_Id.slice(-8).replace(/0/g, 'A')}`,
  firstName: 'Furaha',
  lastName: 'Kahindo',
  sex: 'F',
  territory,
  consent: true,
  location,
  createdAt: at('2024-04-20'),
});
// Clients of organisation 1 (C1, C2), of organisation 2 (C3), and of none (C4).
const profiles: Row[] = [profile(C1, 1, 1), profile(C2, 1, 1), profile(C3, 2, 2), profile(C4, 3, null)];

const referrals: Row[] = [
  { ref_Id: id(501), prof_Id: C1, sp_Detail_Id: id(101), date: '2024-05-01', reason: 'Soins', status: 'completed' },
  { ref_Id: id(502), prof_Id: C3, sp_Detail_Id: id(103), date: '2024-05-02', reason: 'Papiers', status: 'sent' },
  { ref_Id: id(503), prof_Id: C2, sp_Detail_Id: id(101), date: '2024-06-01', reason: 'Soins', status: 'declined' },
];
const jobReferrals: Row[] = [
  { jref_Id: id(601), prof_Id: C1, jb_Id: J1, date: '2024-05-10', status: 'hired' },
  { jref_Id: id(602), prof_Id: C3, jb_Id: J2, date: '2024-06-10', status: 'interviewed' },
];

async function insert(db: Queryable, table: string, rows: Row[]) {
  for (const row of rows) {
    const columns = Object.keys(row)
      .map((c) => `"${c}"`)
      .join(', ');
    await db.query(`INSERT INTO "${table}" (${columns}) SELECT ${columns} FROM jsonb_populate_record(NULL::"${table}", $1::jsonb)`, [
      JSON.stringify(row),
    ]);
  }
}

async function insertFixture(db: Queryable) {
  await seedLookupLists(db); // the server does it on start; a no-op then
  await db.query(
    `UPDATE "lists" SET "items" = "items" || '[{"id": 99, "fr": "Autre", "en": "Other", "active": true}]'::jsonb WHERE "key" = 'serviceType'`,
  );
  const tables: [string, Row[]][] = [
    ['tbl_serviceprovider', providers],
    ['tbl_sp_detail', services],
    ['available-jobs', jobs],
    ['tbl_jobs_other', otherJobs],
    ['tbl_profiles', profiles],
    ['referral', referrals],
    ['jobreferral', jobReferrals],
  ];
  for (const [table, rows] of tables) await insert(db, table, rows);
}

const ALL_KPIS = {
  providers: 3,
  services: 6,
  verifiedServices: 3,
  pendingServices: 2,
  rejectedServices: 1,
  jobs: 3,
  openJobs: 2,
  positions: 6,
  profiles: 4,
  referrals: 3,
  referralsCompleted: 1,
  jobReferrals: 2,
  hired: 1,
};

/** A count answer, [{id, count}] in the order given: `counts([1, 3], [4, 2])`. */
const counts = (...pairs: [id: number | string, count: number][]) => pairs.map(([id, count]) => ({ id, count }));

describe.each(backends)('stats on %s', (backend) => {
  let t: TestServer;
  let token: string;
  const get = (path: string, as = token) => t.api('GET', `/stats${path}`, { token: as });
  const post = (path: string, body: unknown, as = token) => t.api('POST', `/stats${path}`, { token: as, body });
  const expectAnswer = async (path: string, expected: unknown) => {
    const { status, body } = await get(path);
    expect(status).toBe(200);
    expect(body).toEqual(expected);
  };

  beforeAll(async () => {
    // Above 3 markers the map is answered as clusters: the fixture has 3, a test adds one.
    t = await startTestServer({ backend, config: { mapPointsLimit: 3 } });
    token = await t.login(t.admin.userName, t.admin.password);
    await insertFixture(t.server.db);
  });
  afterAll(() => t?.close());

  it('counts the dashboard tiles without soft-deleted records (/stats/gen)', async () => {
    const { status, body } = await get('/gen');
    expect(status).toBe(200);
    expect(body).toEqual({ profiles: 4, referrals: 3, sProviders: 3, services: 6, jobs: 3 });
  });

  it('answers the sidebar badges as [{Pending, Rejected}] (/stats/pendings)', async () => {
    expect((await get('/pendings')).body).toEqual([{ Pending: 2, Rejected: 1 }]);
  });

  it('places live providers and open jobs with coordinates on the map (/stats/geo): counts per group, average position, points', async () => {
    const { status, body } = await get('/geo');
    expect(status).toBe(200);
    expect(body.counts).toEqual([1, 1, 0, 1, 0]); // open jobs, then providers of sp_type 1-4
    expect(body.center.lng).toBeCloseTo((29.22 + 29.25 + 29.2) / 3, 6);
    expect(body.center.lat).toBeCloseTo((-1.68 - 1.5 - 1.6) / 3, 6);
    expect(byId(body.points)).toEqual(
      byId([
        [P1, 29.22, -1.68, 1],
        [P2, 29.25, -1.5, 3],
        [J1, 29.2, -1.6, 0],
      ]),
    );
    expect(body.clusters).toBeUndefined();
  });

  it("answers a view with the markers inside its bounds, without the whole map's figures", async () => {
    expect((await get('/geo?zoom=14&west=29.21&south=-1.69&east=29.23&north=-1.67')).body).toEqual({ points: [[P1, 29.22, -1.68, 1]] });
    expect((await get('/geo?zoom=10&west=10&south=10&east=11&north=11')).body).toEqual({ points: [] });
  });

  it('gives the name and address of the markers asked by id (/stats/geo/places): live providers and open jobs only', async () => {
    const { status, body } = await get(`/geo/places?providers=${P2},${P1},${P3},${P4}&jobs=${J1},${J2}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      latlangs: [
        { id: P1, name: 'Centre de santé Himbi', address: 'Avenue du Lac 12', sp_type: 1, lat: -1.68, lng: 29.22 },
        { id: P2, name: 'Clinique juridique', address: null, sp_type: 3, lat: -1.5, lng: 29.25 },
      ],
      jbLatlangs: [{ id: J1, title: 'Job 1', address: 'Adresse 1', lat: -1.6, lng: 29.2 }],
    });
    expect((await get(`/geo/places?jobs=${J1}`)).body).toEqual({ latlangs: [], jbLatlangs: [body.jbLatlangs[0]] });
  });

  it('refuses bad map queries with a message: partial bounds, out-of-range values, ids that are not ids', async () => {
    for (const query of [
      '/geo?west=29',
      '/geo?zoom=8&west=29&south=-2&east=30',
      '/geo?zoom=30&west=29&south=-2&east=30&north=-1',
      '/geo?zoom=8&west=29&south=-95&east=30&north=-1',
    ]) {
      const { status, body } = await get(query);
      expect(status, query).toBe(400);
      expect(body.message, query).toBeTruthy();
    }
    expect((await get('/geo/places?providers=x')).status).toBe(400);
    expect((await get(`/geo/places?providers=${P1},`)).status).toBe(400);
    expect((await get(`/geo/places?jobs=${Array.from({ length: 101 }, () => J1).join(',')}`)).status).toBe(400);
  });

  it.each([
    ['/byspdtype', counts([1, 3], [4, 2], [2, 1])],
    ['/bySpdTerr', counts([1, 4], [2, 2])],
    ['/byServiceType', counts([1, 2], [5, 1], [7, 1], [10, 1], [99, 1])],
    ['/byoffrall', counts([1, 1], [3, 1], [4, 1], [2, 0])],
    ['/getJbSec/', counts([1, 2], [3, 1])],
    ['/byter/services', counts([1, 4], [2, 2])],
    ['/byter/providers', counts([1, 2], [2, 1])],
    ['/byter/jobs', counts([1, 2], [2, 1])],
    ['/byter/profiles', counts([1, 2], [2, 1], [3, 1])],
    ['/byter/referrals', counts([1, 2], [2, 1])],
  ])('answers %s as [{id, count}], most frequent first', expectAnswer);

  it.each([
    [
      '/byterCate/',
      {},
      [
        { territory: 1, category: 1, count: 3 },
        { territory: 1, category: 2, count: 1 },
        { territory: 2, category: 4, count: 2 },
      ],
    ],
    ['/byterCate/', { territory: 1, category: 1 }, [{ territory: 1, category: 1, count: 3 }]],
    [
      '/byterCate/',
      { dateFrom: '2024-03-01', dateTo: '2024-03-20' },
      [
        { territory: 1, category: 2, count: 1 },
        { territory: 2, category: 4, count: 1 },
      ],
    ],
    [
      '/byterCate/',
      { territory: null, category: null, dateFrom: null, dateTo: null },
      [
        { territory: 1, category: 1, count: 3 },
        { territory: 1, category: 2, count: 1 },
        { territory: 2, category: 4, count: 2 },
      ],
    ],
    [
      '/byterCateMain/',
      {},
      [
        { territory: 1, category: 1, count: 2 },
        { territory: 1, category: 2, count: 1 },
        { territory: 1, category: 3, count: 1 },
        { territory: 2, category: 4, count: 2 },
      ],
    ],
    ['/byterCateMain/', { category: 3 }, [{ territory: 1, category: 3, count: 1 }]],
    ['/byterCateMain/', { territory: 3 }, []],
  ])('answers POST %s %j per territory and category', async (path, body, expected) => {
    const answer = await post(path, body);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(expected);
  });

  it('takes a POST without a body as "no filter"', async () => {
    const response = await fetch(`${t.url}/api/stats/byterCate/`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(3);
  });

  it('answers the key figures, for everything or one territory and period (/stats/getKPIs/)', async () => {
    expect((await get('/getKPIs/')).body).toEqual(ALL_KPIS);
    expect((await get('/getKPIs/?territory=2')).body).toEqual({
      providers: 1,
      services: 2,
      verifiedServices: 1,
      pendingServices: 0,
      rejectedServices: 1,
      jobs: 1,
      openJobs: 0,
      positions: 0,
      profiles: 1,
      referrals: 1,
      referralsCompleted: 0,
      jobReferrals: 1,
      hired: 0,
    });
    expect((await get('/getKPIs/?dateFrom=2024-05-01&dateTo=2024-05-31')).body).toEqual({
      providers: 0,
      services: 1,
      verifiedServices: 1,
      pendingServices: 0,
      rejectedServices: 0,
      jobs: 0,
      openJobs: 0,
      positions: 0,
      profiles: 0,
      referrals: 2,
      referralsCompleted: 1,
      jobReferrals: 1,
      hired: 1,
    });
  });

  it.each([
    // Reports filter every count by territory and period (created, or dated for referrals).
    ['/byspdtype?territory=2', counts([4, 2])],
    ['/bySpdTerr?dateFrom=2024-03-01&dateTo=2024-04-01', counts([1, 2], [2, 1])],
    ['/byServiceType?territory=1&dateTo=2024-02-15', counts([1, 2])],
    ['/byoffrall?territory=1', counts([1, 1], [4, 1], [2, 0], [3, 0])],
    ['/getJbSec/?dateFrom=2024-04-11', counts([1, 1], [3, 1])],
    ['/byter/referrals?dateFrom=2024-05-01&dateTo=2024-05-31', counts([1, 1], [2, 1])],
    ['/by/profiles/sex', counts(['F', 4])],
    ['/by/profiles/territory?territory=3', counts([3, 1])],
    ['/by/referrals/status', counts(['completed', 1], ['declined', 1], ['sent', 1])],
    ['/by/referrals/status?dateTo=2024-05-31', counts(['completed', 1], ['sent', 1])],
    ['/by/jobReferrals/status?territory=1', counts(['hired', 1])],
    ['/by/jobReferrals/territory', counts([1, 1], [2, 1])],
    ['/by/services/status', counts([1, 3], [0, 2], [2, 1])],
    ['/by/providers/sp_type?dateFrom=2024-01-06', counts([3, 1], [4, 1])],
  ])('answers the filtered count %s', expectAnswer);

  it('refuses a field an entity is not counted by, and bad filters of the GET counts', async () => {
    const wrong = await get('/by/jobs/sex');
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([expect.objectContaining({ field: 'field' })]);
    expect((await get('/by/users/territory')).status).toBe(400);
    expect((await get('/by/profiles/password')).status).toBe(400);
    expect((await get('/byspdtype?territory=abc')).status).toBe(400);
    expect((await get('/by/profiles/sex?dateFrom=2024-05-02&dateTo=2024-05-01')).status).toBe(400);
  });

  it('counts client data by field within the organisation, and not at all for role 6', async () => {
    await t.createUser({ userName: 'byorg1', password: 'password-byorg1', role: 3, location: 1 });
    const own = await t.login('byorg1', 'password-byorg1');
    expect((await get('/by/profiles/sex', own)).body).toEqual([{ id: 'F', count: 2 }]);
    expect((await get('/by/referrals/status', own)).body).toEqual([
      { id: 'completed', count: 1 },
      { id: 'declined', count: 1 },
    ]);
    expect((await get('/by/jobReferrals/status', own)).body).toEqual([{ id: 'hired', count: 1 }]);
    await t.createUser({ userName: 'byorg6', password: 'password-byorg6', role: 6, location: 1 });
    const restricted = await t.login('byorg6', 'password-byorg6');
    for (const x of ['profiles', 'referrals', 'jobReferrals']) expect((await get(`/by/${x}/territory`, restricted)).status).toBe(403);
    expect((await get('/by/services/territory', restricted)).status).toBe(200);
  });

  it('refuses an unknown entity in /stats/byter/{x} with the accepted ones', async () => {
    const { status, body } = await get('/byter/users');
    expect(status).toBe(400);
    expect(body.message).toBe('x must be one of: services, providers, jobs, profiles, referrals');
  });

  it.each([
    [{ territory: 'Goma' }, 'territory'],
    [{ category: 0 }, 'category'],
    [{ dateFrom: '17/05/2024' }, 'dateFrom'],
    [{ colour: 'red' }, 'colour'],
    [{ dateFrom: '2024-05-02', dateTo: '2024-05-01' }, 'dateTo'],
  ])('refuses a bad filter %j with a message for %s', async (body, field) => {
    for (const path of ['/byterCate/', '/byterCateMain/']) {
      const answer = await post(path, body);
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([expect.objectContaining({ field })]);
    }
  });

  it('refuses bad KPI filters', async () => {
    expect((await get('/getKPIs/?territory=abc')).status).toBe(400);
    expect((await get('/getKPIs/?dateFrom=2024-13-01')).status).toBe(400);
    expect((await get('/getKPIs/?dateFrom=2024-05-02&dateTo=2024-05-01')).status).toBe(400);
  });

  it('needs a token on every stats call', async () => {
    for (const path of ['/gen', '/geo', `/geo/places?providers=${P1}`, '/pendings', '/byspdtype', '/byter/jobs', '/getKPIs/']) {
      const { status, body } = await t.api('GET', `/stats${path}`);
      expect(status).toBe(401);
      expect(body.message).toBe('No authorization token was found');
    }
    expect((await t.api('POST', '/stats/byterCate/', { body: {} })).status).toBe(401);
  });

  it('lets every role 1-7 read the stats: client figures of its own organisation, of every one for roles 1 and 2, none for role 6', async () => {
    // Organisation 2 has client C3, with one referral ('sent') and one job referral ('interviewed').
    const ownClients = { profiles: 1, referrals: 1, referralsCompleted: 0, jobReferrals: 1, hired: 0 };
    const { profiles: _p, referrals: _r, referralsCompleted: _c, jobReferrals: _j, hired: _h, ...noClients } = ALL_KPIS;
    for (const role of [1, 2, 3, 4, 5, 6, 7]) {
      const user = { userName: `stats${role}`, password: `stats-pass-${role}`, role, location: 2 };
      await t.createUser(user);
      const as = await t.login(user.userName, user.password);
      const gen = await get('/gen', as);
      expect(gen.status, `role ${role}`).toBe(200);
      // Providers and jobs are read by every role, whatever the organisation: the same map.
      expect((await get('/geo', as)).body.counts, `role ${role}`).toEqual([1, 1, 0, 1, 0]);
      expect((await get(`/geo/places?providers=${P1}`, as)).body.latlangs, `role ${role}`).toHaveLength(1);
      const kpis = (await get('/getKPIs/', as)).body;
      if (role === 1 || role === 2) {
        expect(kpis, `role ${role}`).toEqual(ALL_KPIS);
        expect(gen.body).toEqual({ profiles: 4, referrals: 3, sProviders: 3, services: 6, jobs: 3 });
      } else if (role === 6) {
        expect(kpis).toEqual(noClients);
        expect(gen.body).toEqual({ sProviders: 3, services: 6, jobs: 3 });
        expect((await get('/byter/profiles', as)).status).toBe(403);
        expect((await get('/byter/referrals', as)).status).toBe(403);
      } else {
        expect(kpis, `role ${role}`).toEqual({ ...noClients, ...ownClients });
        expect(gen.body, `role ${role}`).toEqual({ profiles: 1, referrals: 1, sProviders: 3, services: 6, jobs: 3 });
        expect((await get('/byter/profiles', as)).body, `role ${role}`).toEqual([{ id: 2, count: 1 }]);
        expect((await get('/byter/referrals', as)).body, `role ${role}`).toEqual([{ id: 2, count: 1 }]);
      }
      expect((await post('/byterCateMain/', {}, as)).status, `role ${role}`).toBe(200);
    }
  });

  it("counts in the badges the services the user may verify: its organisation's (role 1 and no organisation: see docs)", async () => {
    const badge = async (userName: string, role: number, location: number) => {
      // An account without an organisation is one made before organisations were required (the API refuses one now).
      if (location === 0) await t.createUserWithoutOrganisation({ userName, password: `password-${userName}`, role });
      else await t.createUser({ userName, password: `password-${userName}`, role, location });
      return (await get('/pendings', await t.login(userName, `password-${userName}`))).body;
    };
    // P1 (organisation 1) has service 2 pending; P2 (organisation 2) has service 3 rejected.
    expect(await badge('verifier1', 7, 1)).toEqual([{ Pending: 1, Rejected: 0 }]);
    expect(await badge('verifier2', 7, 2)).toEqual([{ Pending: 0, Rejected: 1 }]);
    // Without an organisation: the services of providers of no organisation (P3: service 4 pending).
    expect(await badge('verifier0', 7, 0)).toEqual([{ Pending: 1, Rejected: 0 }]);
  });

  it("gives a programme-wide reader (role 2) every organisation's client figures, with or without an organisation", async () => {
    await t.createUser({ userName: 'reports0', password: 'password-reports0', role: 2, location: 0 });
    const as = await t.login('reports0', 'password-reports0');
    expect((await get('/getKPIs/', as)).body).toEqual(ALL_KPIS);
    expect((await get('/gen', as)).body).toEqual({ profiles: 4, referrals: 3, sProviders: 3, services: 6, jobs: 3 });
    const bySex = (await get('/by/profiles/sex', as)).body as { count: number }[];
    expect(bySex.reduce((sum, row) => sum + row.count, 0)).toBe(ALL_KPIS.profiles);
  });

  it('gives a field worker without an organisation no client figure (an account older than the rule)', async () => {
    await t.createUserWithoutOrganisation({ userName: 'field0', password: 'password-field0', role: 3 });
    const as = await t.login('field0', 'password-field0');
    expect((await get('/getKPIs/', as)).body).toEqual({
      ...ALL_KPIS,
      profiles: 0,
      referrals: 0,
      referralsCompleted: 0,
      jobReferrals: 0,
      hired: 0,
    });
  });

  it('can add its own indexes on this database, and answers the same with them', async () => {
    for (const statement of statsIndexes) await t.asOwner(statement); // DDL: the owner role's, with two roles
    expect((await get('/pendings')).body).toEqual([{ Pending: 2, Rejected: 1 }]);
    expect((await get('/gen')).body.services).toBe(6);
  });

  it('registers every stats call of product.md §7 and documents its answer', async () => {
    const calls = [
      ['GET', '/geo'],
      ['GET', '/geo/places'],
      ['GET', '/pendings'],
      ['GET', '/gen'],
      ['GET', '/byspdtype'],
      ['GET', '/bySpdTerr'],
      ['GET', '/byServiceType'],
      ['GET', '/byoffrall'],
      ['GET', '/byter/:x'],
      ['POST', '/byterCate/'],
      ['POST', '/byterCateMain/'],
      ['GET', '/getJbSec/'],
      ['GET', '/getKPIs/'],
      ['GET', '/by/:x/:field'],
    ] as const;
    const docs = (await t.api('GET', '/docs')).body;
    // The router may ignore trailing slashes (then it keeps the path without one).
    const spellings = (path: string) => [`/api/stats${path}`, `/api/stats${path}`.replace(/\/$/, '')];
    for (const [method, path] of calls) {
      const registered = spellings(path).some((url) => t.server.app.hasRoute({ method, url }));
      expect(registered, `${method} ${path}`).toBe(true);
      const documented = spellings(path.replace(':x', '{x}').replace(':field', '{field}'))
        .map((url) => docs.paths[url]?.[method.toLowerCase()])
        .find(Boolean);
      expect(documented?.responses?.['200'], `${method} ${path}`).toBeDefined();
    }
  });

  it('answers the map from its cache until a provider or a job changes, and as clusters above the limit', async () => {
    const before = (await get('/geo')).body;
    expect((await get('/geo')).body).toEqual(before);
    const added = id(9);
    await insert(t.server.db, 'tbl_serviceprovider', [
      {
        sp_Id: added,
        sp_Name: 'AAA Nouveau centre',
        sp_type: 2,
        sp_Address: 'Rue 1',
        territory: 1,
        lat: -1.6,
        lng: 29.1,
        createdAt: at('2024-07-01'),
      },
    ]);
    // The change notification reaches the server soon after the commit. Four markers are more
    // than this server's limit: one cluster at zoom 7.5 (cells of 0.25°), counted per group.
    await expect.poll(async () => (await get('/geo')).body.counts, { timeout: 5_000, interval: 50 }).toEqual([1, 1, 1, 1, 0]);
    const clustered = (await get('/geo')).body;
    expect(clustered.points).toBeUndefined();
    expect(clustered.clusters).toHaveLength(1);
    const [lng, lat, ...counts] = clustered.clusters[0];
    expect(counts).toEqual([1, 1, 1, 1, 0]);
    expect([lng, lat]).toEqual([clustered.center.lng, clustered.center.lat]);
    expect(lng).toBeCloseTo((29.22 + 29.25 + 29.2 + 29.1) / 4, 6);
    // Zoomed in, the same markers fall in cells of their own; a view with fewer gets its points.
    const zoomedIn = (await get('/geo?zoom=16&west=29&south=-2&east=30&north=-1')).body;
    expect(zoomedIn.clusters).toHaveLength(4);
    expect(zoomedIn.clusters.map((cell: number[]) => cell.slice(2).reduce((a, b) => a + b))).toEqual([1, 1, 1, 1]);
    expect((await get('/geo?zoom=16&west=29.05&south=-1.65&east=29.15&north=-1.55')).body).toEqual({ points: [[added, 29.1, -1.6, 2]] });
    // Soft-deleted (every write moves updatedAt, which the map's index reads from, as the pull
    // feed does): it leaves the map, back to the points.
    await t.server.db.query(`UPDATE "tbl_serviceprovider" SET "deleted" = true, "updatedAt" = now() WHERE "sp_Id" = $1`, [added]);
    await expect.poll(async () => (await get('/geo')).body, { timeout: 5_000, interval: 50 }).toEqual(before);
    // A job closed leaves the map; a provider moved moves.
    await t.server.db.query(`UPDATE "available-jobs" SET "open" = false, "updatedAt" = now() WHERE "jb_Id" = $1`, [J1]);
    await t.server.db.query(`UPDATE "tbl_serviceprovider" SET "lng" = 29.3, "updatedAt" = now() WHERE "sp_Id" = $1`, [P2]);
    await expect
      .poll(async () => byId((await get('/geo')).body.points), { timeout: 5_000, interval: 50 })
      .toEqual(
        byId([
          [P1, 29.22, -1.68, 1],
          [P2, 29.3, -1.5, 3],
        ]),
      );
    await t.server.db.query(`UPDATE "available-jobs" SET "open" = true, "updatedAt" = now() WHERE "jb_Id" = $1`, [J1]);
    await t.server.db.query(`UPDATE "tbl_serviceprovider" SET "lng" = 29.25, "updatedAt" = now() WHERE "sp_Id" = $1`, [P2]);
    await expect.poll(async () => (await get('/geo')).body, { timeout: 5_000, interval: 50 }).toEqual(before);
  });
});
