// Lists at any size over HTTP (docs/performance.md "Lists at any size", docs/api.md "Lists"): the
// count stops at its bound (5 here, LIST_COUNT_BOUND; 10,000 in production) and says so; the
// search, the sort orders and the deep pages read from indexes and still answer the rows the
// screens always had: substring search in any case, empty values last in both directions, ties
// broken by the key so that paging shows every row once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { backends } from '../helpers/db';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

const BOUND = 5;
const ORGANISATION = 2; // 'ADC'
type Client = Record<string, string | null>;

/** Twelve clients: shared last names (ties), a name with an accent, some without phone or birth date. */
const PEOPLE: [string, string, string | null, string | null][] = [
  ['Grâce', 'Kabila', '+243 81 000 0001', '1990-05-01'],
  ['Amani', 'Kabila', null, '1985-01-20'],
  ['amani', 'Mbuyi', '+243 81 000 0003', null],
  ['Neema', 'Kabila', '+243 81 000 0004', '1990-05-01'],
  ['Baraka', 'Ngoy', '+243 81 000 0005', '2001-11-30'],
  ['Esther', 'Mbuyi', null, null],
  ['Jean', 'Kabila', '+243 81 000 0007', '1979-07-07'],
  ['Marie', 'Ngoy', '+243 81 000 0008', '1990-05-01'],
  ['Patrick', 'Mbuyi', '+243 81 000 0009', '1995-03-03'],
  ['Josué', 'Kabila', '+243 81 000 0010', null],
  ['Aimée', 'Ngoy', '+243 81 000 0011', '1988-08-08'],
  ['Héritier', 'Kabila', '+243 81 000 0012', '2000-02-29'],
];

/** The order the lists always gave: values in `dir`, empty ones last either way, then the key in `dir`. */
function expectedOrder(rows: Client[], field: string, dir: 'asc' | 'desc'): string[] {
  const sign = dir === 'asc' ? 1 : -1;
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...rows]
    .sort((a, b) => {
      const [x, y] = [a[field], b[field]];
      if (x !== y) {
        if (x === null || x === undefined) return 1;
        if (y === null || y === undefined) return -1;
        return sign * compare(x, y);
      }
      return sign * compare(String(a.prof_Id), String(b.prof_Id));
    })
    .map((row) => String(row.prof_Id));
}

describe.each(backends)('lists at any size on %s', (backend) => {
  let t: TestServer;
  let token: string;
  let all: Client[] = [];

  const list = async (query: string, who = token) => {
    const answer = await t.api('GET', `/profile?${query}`, { token: who });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as { rows: Client[]; total: number; totalIsLowerBound: boolean };
  };

  beforeAll(async () => {
    t = await startTestServer({ backend, config: { listCountBound: BOUND } });
    await ensureOrganisations(t.server.db);
    await t.createUser({ userName: 'scale-a3', password: 'password-a3', role: 3, location: ORGANISATION });
    token = await t.login('scale-a3', 'password-a3');
    for (const [firstName, lastName, phone, birthDate] of PEOPLE) {
      const body = {
        ...sampleBody(entityByName.profile, {}),
        prof_Reg_No: registrationNumber('ADC'),
        firstName,
        lastName,
        phone,
        birthDate,
      };
      const created = await t.api('POST', '/profile/', { token, body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    all = (await list('pageSize=50')).rows;
  });
  afterAll(() => t?.close());

  it('counts exactly up to the bound, then answers the bound with totalIsLowerBound', async () => {
    expect(all).toHaveLength(PEOPLE.length);
    const firstPage = await list(`pageSize=${BOUND}`);
    expect(firstPage.rows).toHaveLength(BOUND);
    expect(firstPage).toMatchObject({ total: BOUND, totalIsLowerBound: true });
    // Under the bound: exact, and said so.
    expect(await list('pageSize=5&q=Ngoy')).toMatchObject({ total: 3, totalIsLowerBound: false });
    expect(await list('pageSize=50')).toMatchObject({ total: PEOPLE.length, totalIsLowerBound: false });
  });

  it('counts as far as the page asked: a deep page knows whether another follows, and the last one counts exactly', async () => {
    // Page 2 of 5 ends at row 10: counted up to 10, there are more.
    expect(await list('page=2&pageSize=5')).toMatchObject({ total: 10, totalIsLowerBound: true });
    // Page 3 ends at row 15: every row counted.
    const last = await list('page=3&pageSize=5');
    expect(last).toMatchObject({ total: PEOPLE.length, totalIsLowerBound: false });
    expect(last.rows).toHaveLength(PEOPLE.length - 10);
  });

  it('the audit list and the referral search count within the same bound', async () => {
    const admin = await t.login(t.admin.userName, t.admin.password);
    const audit = await t.api('GET', '/audit?page=1&pageSize=5', { token: admin });
    expect(audit.status).toBe(200);
    expect(audit.body).toMatchObject({ total: BOUND, totalIsLowerBound: true });
    const referrals = await t.api('POST', '/referral/search', { token, body: { page: 1, pageSize: 5 } });
    expect(referrals.status, JSON.stringify(referrals.body)).toBe(200);
    expect(referrals.body).toMatchObject({ total: 0, totalIsLowerBound: false });
  });

  it('finds a substring of a name, a phone number or a registration number, in any case, accents as typed', async () => {
    const reg = String(all[4]?.prof_Reg_No);
    const searches = ['ABIL', 'amani', 'grâ', 'HÉRI'.toLowerCase(), '000 0011', reg.slice(3, 9).toLowerCase(), 'zzz'];
    for (const q of searches) {
      const found = (await list(`pageSize=50&q=${encodeURIComponent(q)}`)).rows.map((row) => row.prof_Id).sort();
      const expected = all
        .filter((row) =>
          ['prof_Reg_No', 'firstName', 'lastName', 'phone'].some((name) => row[name]?.toLowerCase().includes(q.toLowerCase())),
        )
        .map((row) => row.prof_Id)
        .sort();
      expect(found, q).toEqual(expected);
    }
    expect((await list('pageSize=50&q=Kabila')).rows).toHaveLength(6);
  });

  it('pages through each sort order showing every row once: ties by the key, empty values last both ways', async () => {
    for (const field of ['lastName', 'birthDate', 'phone', 'createdAt', 'sex']) {
      for (const dir of ['asc', 'desc'] as const) {
        const pages = await Promise.all([1, 2, 3].map((page) => list(`page=${page}&pageSize=5&sort=${field}&dir=${dir}`)));
        const ids = pages.flatMap((page) => page.rows.map((row) => String(row.prof_Id)));
        expect(ids, `${field} ${dir}`).toEqual(expectedOrder(all, field, dir));
      }
    }
  });

  it('the list orders, searches and audit filters have their indexes, the trigram ones included', async () => {
    const names = (await t.server.db.query<{ indexname: string }>('SELECT indexname FROM pg_indexes')).map((row) => row.indexname);
    expect(names).toEqual(
      expect.arrayContaining([
        'tbl_profiles_l_createdAt',
        'tbl_profiles_l_location_createdAt',
        'tbl_profiles_l_location_birthDate_desc',
        'tbl_profiles_l_trgm_lastName',
        'tbl_profiles_l_trgm_prof_Reg_No',
        'tbl_serviceprovider_l_sp_Name',
        'audit_log_location_idx',
        'audit_log_user_idx',
      ]),
    );
  });

  it('the audit list filters by organisation, user, table and day', async () => {
    const admin = await t.login(t.admin.userName, t.admin.password);
    const today = new Date().toISOString().slice(0, 10);
    const [user] = await t.server.db.query<{ userId: string }>(`SELECT "userId" FROM "users" WHERE "userName" = 'scale-a3'`);
    const query = `location=${ORGANISATION}&userId=${user?.userId}&entity=profile&dateFrom=${today}&dateTo=${today}&pageSize=50`;
    const answer = await t.api('GET', `/audit?${query}`, { token: admin });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const rows = answer.body.rows as { location: number; userId: string; entity: string }[];
    expect(rows).toHaveLength(PEOPLE.length);
    expect(rows.every((row) => row.location === ORGANISATION && row.userId === user?.userId && row.entity === 'profile')).toBe(true);
    const none = await t.api('GET', `/audit?location=0&entity=profile&pageSize=50`, { token: admin });
    expect(none.body).toMatchObject({ rows: [], total: 0, totalIsLowerBound: false });
  });
});
