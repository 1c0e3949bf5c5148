// What staff meet on their first day, over HTTP: a programme-wide reader (role 2) counts every
// organisation's clients and reads none of them; impossible dates are refused with a stable code
// and change nothing; an unanswered yes/no question stays null; the first administrator's
// password file goes once the password is changed; the request log is off unless LOG_LEVEL asks.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { configFromEnv } from '../../server/config';
import { backends } from '../helpers/db';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';
import { StreamReader } from '../helpers/sse';

const A = 2; // organisation 'ADC'
const B = 3; // organisation 'CAJ'
const PASSWORD = 'first-day-password-1';

describe.each(backends)('first-day data on %s', (backend) => {
  let t: TestServer;
  const log: string[] = [];
  const tokens: Record<string, string> = {};
  const clients: Record<number, string> = {};

  /** A client of organisation `org`, made by its field worker, with `extra` fields. */
  async function newClient(org: number, extra: Record<string, unknown> = {}) {
    const body = { ...sampleBody(entityByName.profile, {}), prof_Reg_No: registrationNumber(org === A ? 'ADC' : 'CAJ'), ...extra };
    delete (body as Record<string, unknown>).disability; // left untouched, as a form leaves it
    return t.api('POST', '/profile/', { token: tokens[`field${org}`], body });
  }
  const profileCount = async () => (await t.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "tbl_profiles"'))[0].n;

  beforeAll(async () => {
    // The request log as LOG_LEVEL=info asks for it.
    t = await startTestServer({
      backend,
      config: { logLevel: configFromEnv({ LOG_LEVEL: 'info' }).logLevel },
      logStream: { write: (l) => log.push(l) },
    });
    await ensureOrganisations(t.server.db);
    for (const org of [A, B]) {
      await t.createUser({ userName: `field${org}`, password: PASSWORD, role: 3, location: org });
      tokens[`field${org}`] = await t.login(`field${org}`, PASSWORD);
    }
    await t.createUser({ userName: 'supervisor', password: PASSWORD, role: 2, location: 0 });
    tokens.reader = await t.login('supervisor', PASSWORD);
    for (const org of [A, B]) {
      const made = await newClient(org);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      clients[org] = made.body.prof_Id as string;
    }
  });
  afterAll(() => t?.close());

  describe('a programme-wide reader (role 2 without an organisation)', () => {
    it('counts the clients and referrals of every organisation on the dashboard and in the reports', async () => {
      const truth = async (table: string) => (await t.server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`))[0].n;
      const [profiles, referrals] = [await truth('tbl_profiles'), await truth('referral')];
      expect(profiles).toBe(2);
      const gen = await t.api('GET', '/stats/gen', { token: tokens.reader });
      expect([gen.body.profiles, gen.body.referrals]).toEqual([profiles, referrals]);
      const kpis = await t.api('GET', '/stats/getKPIs/', { token: tokens.reader });
      expect(kpis.body.profiles).toBe(profiles);
      const byTerritory = (await t.api('GET', '/stats/byter/profiles', { token: tokens.reader })).body as { count: number }[];
      expect(byTerritory.reduce((sum, row) => sum + row.count, 0)).toBe(profiles);
      // A field worker still counts its own organisation's only.
      expect((await t.api('GET', '/stats/gen', { token: tokens[`field${A}`] })).body.profiles).toBe(1);
    });

    it('gets 403 on every client record, list, sub-record, image and pull', async () => {
      const id = clients[A];
      const refused: string[] = [];
      const urls = [
        '/profile',
        `/profile/${id}`,
        `/profile/skprofile/${id}`,
        `/profile/security/${id}`,
        `/profile/images/${id}`,
        '/referral',
        '/jobreferral',
        '/sync/tbl_profiles?limit=10',
        '/sync/referral?limit=10',
        '/sync/tbl_profiles_sec?limit=10',
      ];
      for (const url of urls) {
        const answer = await t.api('GET', url, { token: tokens.reader });
        if (![403, 404].includes(answer.status)) refused.push(`${url}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 100)}`);
        expect(JSON.stringify(answer.body)).not.toContain(id);
      }
      expect(refused).toEqual([]);
    });

    it('hears no change event of client data on its stream', async () => {
      const reader = new StreamReader();
      await reader.open(await t.streamUrl(tokens.reader));
      const field = new StreamReader();
      await field.open(await t.streamUrl(tokens[`field${A}`]));
      const made = await newClient(A);
      expect(made.status).toBe(201);
      await field.next('tbl_profiles', 0); // the event went out, to those who may read it
      // Then a change it may hear of (a lookup list): its stream works, and came after the profile's event.
      const admin = await t.login(t.admin.userName, t.admin.password);
      const [sector] = (await t.server.db.query<{ id: string }>(`SELECT "id" FROM "lists" WHERE "key" = 'sector'`)) as [{ id: string }];
      expect((await t.api('POST', `/lists/${sector.id}`, { token: admin, body: { fr: 'Pêche', en: 'Fishing' } })).status).toBe(201);
      await reader.next('lists', 0);
      expect(reader.tables).not.toContain('tbl_profiles');
      reader.close();
      field.close();
    });

    it('is refused a client written in its name, and nothing is stored', async () => {
      const before = await profileCount();
      const body = { ...sampleBody(entityByName.profile, {}), prof_Reg_No: registrationNumber('ADC') };
      expect((await t.api('POST', '/profile/', { token: tokens.reader, body })).status).toBe(403);
      expect(await profileCount()).toBe(before);
    });
  });

  describe('dates that mean what they say', () => {
    it('refuses a birth date in 2031 with a stable code and a message in the language asked, and stores nothing', async () => {
      const before = await profileCount();
      const answer = await newClient(A, { birthDate: '2031-05-10' });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('validation.dateOutOfRange');
      expect(answer.body.errors).toEqual([expect.objectContaining({ field: 'birthDate' })]);
      expect(answer.body.message).toMatch(/impossible date/);
      const french = await t.api('POST', '/profile/', {
        token: tokens[`field${A}`],
        headers: { 'accept-language': 'fr' },
        body: { ...sampleBody(entityByName.profile, {}), prof_Reg_No: registrationNumber('ADC'), birthDate: '2031-05-10' },
      });
      expect([french.status, french.body.code]).toEqual([400, 'validation.dateOutOfRange']);
      expect(french.body.message).toMatch(/date impossible/);
      expect(await profileCount()).toBe(before);
    });

    it('refuses a birth date over 120 years ago, and an edit or an upload that brings one', async () => {
      expect((await newClient(A, { birthDate: '1901-01-01' })).body.code).toBe('validation.dateOutOfRange');
      const edit = await t.api('PUT', `/profile/${clients[A]}`, { token: tokens[`field${A}`], body: { birthDate: '2031-05-10' } });
      expect([edit.status, edit.body.code]).toEqual([400, 'validation.dateOutOfRange']);
      const stored = await t.server.db.query<{ birthDate: unknown }>('SELECT "birthDate" FROM "tbl_profiles" WHERE "prof_Id" = $1', [
        clients[A],
      ]);
      expect(stored[0].birthDate).not.toBeNull(); // the sample's, unchanged
      const body = { ...sampleBody(entityByName.profile, {}), prof_Reg_No: registrationNumber('ADC'), birthDate: '2031-05-10' };
      const pushed = await t.api('POST', '/sync/push/tbl_profiles', {
        token: tokens[`field${A}`],
        body: { records: [{ op: 'create', data: body }] },
      });
      expect(JSON.stringify(pushed.body)).toContain('validation.dateOutOfRange');
    });

    it('accepts a birth date of today', async () => {
      const today = new Date().toISOString().slice(0, 10);
      expect((await newClient(A, { birthDate: today })).status).toBe(201);
    });
  });

  describe('yes/no questions with three states', () => {
    it('keeps an untouched question null (not "no") in the record, its sub-records and the pull', async () => {
      const one = await t.api('GET', `/profile/${clients[A]}`, { token: tokens[`field${A}`] });
      expect(one.body.disability).toBeNull();
      const security = await t.api('POST', '/profile/security/', {
        token: tokens[`field${A}`],
        body: { prof_Id: clients[A], concerns: 'none said' },
      });
      expect(security.status, JSON.stringify(security.body)).toBeLessThan(300);
      const read = await t.api('GET', `/profile/security/${clients[A]}`, { token: tokens[`field${A}`] });
      expect([read.body.feelsSafe, read.body.hasIdDocument, read.body.referralNeeded]).toEqual([null, null, null]);
      const answered = await t.api('PUT', `/profile/${clients[A]}`, { token: tokens[`field${A}`], body: { disability: false } });
      expect(answered.body.disability).toBe(false);
      const cleared = await t.api('PUT', `/profile/${clients[A]}`, { token: tokens[`field${A}`], body: { disability: null } });
      expect(cleared.body.disability).toBeNull();
    });
  });

  it('writes one log line per request at LOG_LEVEL=info, and none by default', () => {
    expect(log.some((line) => /"msg":"request completed"/.test(line))).toBe(true);
    expect(configFromEnv({}).logLevel).toBe('warn');
  });
});

describe('the first administrator on a fresh database', () => {
  let t: TestServer;
  const log: string[] = [];
  beforeAll(async () => {
    // No ADMIN_PASSWORD: a generated one, in a file; the default log level.
    t = await startTestServer({
      config: { adminPassword: undefined, logLevel: configFromEnv({}).logLevel },
      logStream: { write: (l) => log.push(l) },
    });
  });
  afterAll(() => t?.close());

  it('has its password file deleted once it has chosen its own password, and logs no request by default', async () => {
    const file = t.server.firstAdmin?.passwordFile as string;
    expect(existsSync(file)).toBe(true);
    const password = /password: (.+)/.exec(readFileSync(file, 'utf8'))?.[1] as string;
    const token = await t.login('admin', password);
    const wrong = await t.api('POST', '/users/changepass', {
      token,
      body: { oldPassword: 'not-it-at-all', newPassword: 'a-new-password-2' },
    });
    expect(wrong.status).toBe(400);
    expect(existsSync(file)).toBe(true); // a refused change keeps it
    const changed = await t.api('POST', '/users/changepass', { token, body: { oldPassword: password, newPassword: 'a-new-password-2' } });
    expect(changed.status).toBe(200);
    expect(existsSync(file)).toBe(false);
    expect(log.filter((line) => /request completed|incoming request/.test(line))).toEqual([]);
  });
});
