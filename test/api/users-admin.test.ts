// Over HTTP (ADR-0003, ADR-0030): the last sign-in of the user list, temporary passwords that must be
// changed at the next sign-in, the password strength rule on the server, role 7's limits,
// how many records use each lookup item, and the contact details of GET /api/config.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordProblems } from '../../schemas/passwords';
import { backends } from '../helpers/db';
import { startTestServer, type TestServer } from '../helpers/server';

const ORG = 2;
const OTHER_ORG = 4;
const PASSWORD = 'first-pass-2026';

describe('the password strength rule', () => {
  it('asks for 8 characters, not the user name, not a common password', () => {
    expect(passwordProblems('Tr4vail-du-matin', 'awa')).toEqual([]);
    expect(passwordProblems('short', 'awa')).toEqual(['length']);
    expect(passwordProblems('xx-awa.diallo-xx', 'awa.diallo')).toEqual(['userName']);
    for (const common of ['password', 'Password2024!', 'azerty123', '12345678', 'aaaaaaaa', 'motdepasse']) {
      expect(passwordProblems(common, 'someone'), common).toContain('common');
    }
  });
});

describe.each(backends)('user administration API on %s', (backend) => {
  let t: TestServer;
  let admin: string;
  let orgAdmin: string;
  let seq = 0;
  const unique = (prefix: string) => `${prefix}${(seq += 1)}x${backend}`;
  const stored = async (userId: string) =>
    (await t.server.db.query<Record<string, unknown>>('SELECT * FROM "users" WHERE "userId" = $1', [userId]))[0];
  const signIn = (userName: string, password: string) => t.api('POST', '/login', { body: { userName, password } });

  beforeAll(async () => {
    t = await startTestServer({
      backend,
      config: {
        contact: {
          name: 'ICRS support',
          email: 'support@programme.example.net',
          phone: '+243 81 000 0000',
          address: null,
          hours: 'Mon-Fri 8:00-16:00',
        },
      },
    });
    admin = await t.login(t.admin.userName, t.admin.password);
    await t.createUser({ userName: 'orgadmin14', password: PASSWORD, role: 7, location: ORG });
    orgAdmin = await t.login('orgadmin14', PASSWORD);
  });
  afterAll(() => t?.close());

  it('notes each sign-in and lists it', async () => {
    const userName = unique('seen');
    const { userId } = await t.createUser({ userName, password: PASSWORD, role: 4, location: ORG });
    expect((await stored(userId)).lastSignInAt).toBeNull();
    const before = Date.now();
    const answer = await signIn(userName, PASSWORD);
    expect(answer.status).toBe(200);
    expect(Date.parse(answer.body.result.user.lastSignInAt)).toBeGreaterThanOrEqual(before - 1000);
    const page = await t.api('GET', `/users?q=${userName}`, { token: admin });
    expect(page.body.rows).toHaveLength(1);
    expect(page.body.rows[0].lastSignInAt).toBe(answer.body.result.user.lastSignInAt);
    const sorted = await t.api('GET', '/users?sort=lastSignInAt&dir=desc', { token: admin });
    expect(sorted.status).toBe(200);
  });

  it('makes a reset password temporary until the user chooses their own, which then meets the rule', async () => {
    const userName = unique('reset');
    const { userId } = await t.createUser({ userName, password: PASSWORD, role: 3, location: ORG });
    const reset = await t.api('PUT', `/users/${userId}`, { token: admin, body: { password: 'temporary-7731' } });
    expect(reset.status).toBe(200);
    expect(reset.body.mustChangePassword).toBe(true);
    const login = await signIn(userName, 'temporary-7731');
    expect(login.body.result.user.mustChangePassword).toBe(true);
    const token = login.body.result.user.token as string;

    // The server applies the rule the screen shows; a refusal changes nothing.
    const cases = [
      { newPassword: `my-${userName}-pass`, message: 'The new password must not contain your user name' },
      { newPassword: 'Password2026!', message: 'This password is too common and easy to guess; choose another one' },
    ];
    for (const { newPassword, message } of cases) {
      const refused = await t.api('POST', '/users/changepass', { token, body: { oldPassword: 'temporary-7731', newPassword } });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([{ field: 'newPassword', message }]);
    }
    const french = await t.api('POST', '/users/changepass', {
      token,
      body: { oldPassword: 'temporary-7731', newPassword: 'azertyuiop' },
      headers: { 'accept-language': 'fr' },
    });
    expect(french.body.message).toBe('Ce mot de passe est trop courant et facile à deviner ; choisissez-en un autre');
    expect((await stored(userId)).mustChangePassword).toBe(true);

    const changed = await t.api('POST', '/users/changepass', {
      token,
      body: { oldPassword: 'temporary-7731', newPassword: 'river-stone-lantern' },
    });
    expect(changed.status).toBe(200);
    expect((await stored(userId)).mustChangePassword).toBe(false);
    expect((await t.api('GET', `/users/${userId}`, { token })).status).toBe(401); // the old session ended
    expect((await t.api('GET', `/users/${userId}`, { token: changed.body.token })).body.mustChangePassword).toBe(false);
  });

  it('lets the administrator choose a permanent password or a temporary first one', async () => {
    const temporary = await t.api('POST', '/users/', {
      token: admin,
      body: { userName: unique('first'), password: PASSWORD, role: 2, fullName: 'First Login', mustChangePassword: true },
    });
    expect(temporary.status).toBe(201);
    expect(temporary.body.mustChangePassword).toBe(true);
    const { userId } = await t.createUser({ userName: unique('kept'), password: PASSWORD, role: 3, location: ORG });
    const kept = await t.api('PUT', `/users/${userId}`, { token: admin, body: { password: 'another-pass-99', mustChangePassword: false } });
    expect(kept.body.mustChangePassword).toBe(false);
  });

  it("lets role 7 give its staff a temporary password, never make an administrator or another organisation's staff", async () => {
    const staff = await t.api('POST', '/users/createStaff', {
      token: orgAdmin,
      body: { userName: unique('staff'), password: PASSWORD, role: 5, fullName: 'Org Staff', mustChangePassword: true },
    });
    expect(staff.status).toBe(201);
    expect(staff.body).toMatchObject({ location: ORG, role: 5, mustChangePassword: true });
    const reset = await t.api('PUT', `/users/staff/${staff.body.userId}`, { token: orgAdmin, body: { password: 'temporary-1122' } });
    expect(reset.body.mustChangePassword).toBe(true);

    const before = (await t.server.db.query('SELECT count(*)::int AS n FROM "users"'))[0];
    const asAdmin = await t.api('POST', '/users/createStaff', {
      token: orgAdmin,
      body: { userName: unique('boss'), password: PASSWORD, role: 1, fullName: 'Not Allowed' },
    });
    expect(asAdmin.status).toBe(403);
    const elsewhere = await t.api('POST', '/users/createStaff', {
      token: orgAdmin,
      body: { userName: unique('far'), password: PASSWORD, role: 4, location: OTHER_ORG, fullName: 'Not Allowed' },
    });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.message).toBe('You can only manage the staff of your own organisation');
    expect(
      (
        await t.api('POST', '/users/', {
          token: orgAdmin,
          body: { userName: unique('any'), password: PASSWORD, role: 4, fullName: 'Nope Body' },
        })
      ).status,
    ).toBe(403);
    expect((await t.server.db.query('SELECT count(*)::int AS n FROM "users"'))[0]).toEqual(before);
  });

  it('counts the records that use each lookup item, for role 1 only', async () => {
    const lists = (await t.api('GET', '/lists', { token: admin })).body as { id: string; key: string }[];
    const organisation = lists.find((l) => l.key === 'organisation');
    const usage = await t.api('GET', `/lists/${organisation?.id}/usage`, { token: admin });
    expect(usage.status).toBe(200);
    expect(usage.body.known).toBe(true);
    const inOrg = (await t.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "users" WHERE "location" = $1', [ORG]))[0].n;
    expect(usage.body.items[String(ORG)]).toBe(inOrg);
    const category = lists.find((l) => l.key === 'category');
    const categories = await t.api('GET', `/lists/${category?.id}/usage`, { token: admin });
    expect(categories.body.items['1']).toBeGreaterThan(0); // the seeded service types name their category
    expect((await t.api('GET', `/lists/${organisation?.id}/usage`, { token: orgAdmin })).status).toBe(403);
  });

  it('gives the programme contact details to anyone, signed in or not', async () => {
    const { status, body } = await t.api('GET', '/config');
    expect(status).toBe(200);
    expect(body.contact).toEqual({
      name: 'ICRS support',
      email: 'support@programme.example.net',
      phone: '+243 81 000 0000',
      address: null,
      hours: 'Mon-Fri 8:00-16:00',
    });
  });
});
