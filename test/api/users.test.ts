// User management over HTTP (product.md §7 "Auth and users", product.md §D4): every endpoint's
// normal case, validation, 401, 403 for each role outside the matrix, 404, 409, role 7
// organisation scoping, self-edits, password changes and deactivation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../schemas/roles';
import { backends } from '../helpers/db';
import { startTestServer, type TestServer } from '../helpers/server';

const ORG = 3;
const OTHER_ORG = 9;
const PASSWORD = 'password-123';
const UNKNOWN_ID = '01890a5d-ac96-774b-bcce-b302099a8057';

type Answer = Awaited<ReturnType<TestServer['api']>>;
type Call = (token?: string) => Promise<Answer>;

describe.each(backends)('users API on %s', (backend) => {
  let t: TestServer;
  /** A signed-in user of each role; roles 2-7 belong to organisation ORG. */
  const tokens = {} as Record<Role, string>;
  const ids = {} as Record<Role, string>;
  let colleague: string; // role 4 of ORG
  let outsider: string; // role 4 of OTHER_ORG
  let seq = 0;

  const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(seq += 1)}`;
  const stored = async (userId: string) =>
    (await t.server.db.query<Record<string, unknown>>('SELECT * FROM "users" WHERE "userId" = $1', [userId]))[0];
  const countNamed = async (userName: string) =>
    (await t.server.db.query('SELECT 1 FROM "users" WHERE lower("userName") = lower($1)', [userName])).length;

  /** A fresh user for a test that changes it. */
  async function newUser(role: Role, location = ORG) {
    const userName = unique(`u${role}_`);
    const { userId } = await t.createUser({ userName, password: PASSWORD, role, location });
    return { userId, userName, password: PASSWORD };
  }

  const staffBody = (extra: Record<string, unknown> = {}) => ({
    userName: unique('staff'),
    password: PASSWORD,
    role: 4,
    fullName: 'New Staff',
    ...extra,
  });

  beforeAll(async () => {
    t = await startTestServer({ backend });
    tokens[1] = await t.login(t.admin.userName, t.admin.password);
    ids[1] = (await t.api('POST', '/login', { body: { userName: t.admin.userName, password: t.admin.password } })).body.result.user.userId;
    for (const role of ROLES.filter((r) => r !== 1)) {
      const user = await newUser(role);
      ids[role] = user.userId;
      tokens[role] = await t.login(user.userName, PASSWORD);
    }
    colleague = (await newUser(4)).userId;
    outsider = (await newUser(4, OTHER_ORG)).userId;
  });
  afterAll(() => t?.close());

  // ---------------------------------------------------------------------------------------
  // The gate: every endpoint needs a token, and refuses the roles outside the matrix
  // ---------------------------------------------------------------------------------------

  interface Gate {
    name: string;
    allowed: readonly Role[];
    call: Call;
    /** After a refusal: nothing was written. */
    unchanged?: () => Promise<void>;
  }

  const gateName = unique('gate');
  const gates: Gate[] = [
    { name: 'GET /users', allowed: [1, 7], call: (token) => t.api('GET', '/users', { token }) },
    { name: 'GET /users/all', allowed: [1, 7], call: (token) => t.api('GET', '/users/all', { token }) },
    { name: 'GET /users/{id} of another user', allowed: [1, 7], call: (token) => t.api('GET', `/users/${colleague}`, { token }) },
    {
      name: 'POST /users/',
      allowed: [1],
      call: (token) => t.api('POST', '/users/', { token, body: staffBody({ userName: gateName }) }),
      unchanged: async () => expect(await countNamed(gateName)).toBe(0),
    },
    {
      name: 'POST /users/createStaff',
      allowed: [1, 7],
      call: (token) => t.api('POST', '/users/createStaff', { token, body: staffBody({ userName: gateName }) }),
      unchanged: async () => expect(await countNamed(gateName)).toBe(0),
    },
    {
      name: 'PUT /users/{id}',
      allowed: [1],
      call: (token) => t.api('PUT', `/users/${colleague}`, { token, body: { fullName: 'Gate Crasher' } }),
      unchanged: async () => expect((await stored(colleague)).fullName).not.toBe('Gate Crasher'),
    },
    {
      name: 'PUT /users/staff/{id}',
      allowed: [1, 7],
      call: (token) => t.api('PUT', `/users/staff/${colleague}`, { token, body: { fullName: 'Gate Crasher' } }),
      unchanged: async () => expect((await stored(colleague)).fullName).not.toBe('Gate Crasher'),
    },
    {
      // Self-only: even role 1 may not use it on another user.
      name: 'PUT /users/self/{id} of another user',
      allowed: [],
      call: (token) => t.api('PUT', `/users/self/${colleague}`, { token, body: { fullName: 'Gate Crasher' } }),
      unchanged: async () => expect((await stored(colleague)).fullName).not.toBe('Gate Crasher'),
    },
  ];
  const refusals = gates.flatMap((gate) =>
    ROLES.filter((role) => !gate.allowed.includes(role)).map((role) => [gate.name, role, gate] as const),
  );

  it.each(refusals)('%s refuses role %i with 403 and writes nothing', async (_name, role, gate) => {
    const { status, body } = await gate.call(tokens[role]);
    expect(status).toBe(403);
    expect(body.message).toMatch(/not allowed|only edit your own/);
    await gate.unchanged?.();
  });

  const everyCall: [string, Call][] = [
    ...gates.map((gate): [string, Call] => [gate.name, gate.call]),
    ['PUT /users/self/{id}', () => t.api('PUT', `/users/self/${ids[3]}`, { body: { fullName: 'No Token' } })],
    ['POST /users/changepass', () => t.api('POST', '/users/changepass', { body: { oldPassword: PASSWORD, newPassword: 'whatever-123' } })],
  ];
  it.each(everyCall)('%s needs a token (401)', async (_name, call) => {
    const { status, body } = await call(undefined);
    expect(status).toBe(401);
    expect(body.message).toBe('No authorization token was found');
  });

  // ---------------------------------------------------------------------------------------
  // Reading
  // ---------------------------------------------------------------------------------------

  describe('GET /users', () => {
    it('pages every user for role 1, without password hashes', async () => {
      const { status, body } = await t.api('GET', '/users?pageSize=5&sort=userName&dir=asc', { token: tokens[1] });
      expect(status).toBe(200);
      expect(body).toMatchObject({ page: 1, pageSize: 5 });
      expect(body.total).toBeGreaterThanOrEqual(9);
      expect(body.rows).toHaveLength(5);
      // No password nor its hash (the flag mustChangePassword is no secret).
      expect(JSON.stringify(body)).not.toMatch(/"password(Hash)?"|\$argon2/i);
    });

    it('shows role 7 the users of its own organisation only', async () => {
      const { status, body } = await t.api('GET', '/users?pageSize=200', { token: tokens[7] });
      expect(status).toBe(200);
      expect(body.rows.length).toBeGreaterThan(0);
      expect(body.rows.every((u: { location: number }) => u.location === ORG)).toBe(true);
      expect(body.rows.map((u: { userId: string }) => u.userId)).not.toContain(outsider);
    });

    it('refuses a page size outside the spec menus with the field message', async () => {
      const { status, body } = await t.api('GET', '/users?pageSize=7', { token: tokens[1] });
      expect(status).toBe(400);
      expect(body.errors).toEqual([{ field: 'pageSize', message: 'pageSize must be one of: 5, 10, 15, 20, 25, 50, 100, 200' }]);
    });
  });

  describe('GET /users/all', () => {
    it('lists active users with the picker fields only', async () => {
      const gone = await newUser(5);
      await t.api('PUT', `/users/${gone.userId}`, { token: tokens[1], body: { active: false } });
      const { status, body } = await t.api('GET', '/users/all', { token: tokens[1] });
      expect(status).toBe(200);
      const me = body.find((u: { userId: string }) => u.userId === ids[4]);
      expect(Object.keys(me).sort()).toEqual(['fullName', 'location', 'role', 'userId', 'userName']);
      expect(body.map((u: { userId: string }) => u.userId)).toContain(outsider);
      expect(body.map((u: { userId: string }) => u.userId)).not.toContain(gone.userId);
    });

    it('gives role 7 its own organisation only', async () => {
      const { status, body } = await t.api('GET', '/users/all', { token: tokens[7] });
      expect(status).toBe(200);
      expect(body.map((u: { userId: string }) => u.userId)).toEqual(expect.arrayContaining([colleague, ids[7]]));
      expect(body.every((u: { location: number }) => u.location === ORG)).toBe(true);
    });
  });

  describe('GET /users/{id}', () => {
    it.each(ROLES)('lets role %i read its own record', async (role) => {
      const { status, body } = await t.api('GET', `/users/${ids[role]}`, { token: tokens[role] });
      expect(status).toBe(200);
      expect(body).toMatchObject({ userId: ids[role], role, active: true });
      expect(body).not.toHaveProperty('passwordHash');
      expect(body).not.toHaveProperty('password');
    });

    it('lets role 1 read anyone and role 7 its own organisation, not another one', async () => {
      expect((await t.api('GET', `/users/${outsider}`, { token: tokens[1] })).status).toBe(200);
      expect((await t.api('GET', `/users/${colleague}`, { token: tokens[7] })).status).toBe(200);
      const other = await t.api('GET', `/users/${outsider}`, { token: tokens[7] });
      expect(other.status).toBe(403);
      expect(other.body.message).toBe('You can only manage the staff of your own organisation');
    });

    it('answers 404 to an unknown id and 400 to a malformed one', async () => {
      const unknown = await t.api('GET', `/users/${UNKNOWN_ID}`, { token: tokens[1] });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('No record with this id');
      const bad = await t.api('GET', '/users/not-a-uuid', { token: tokens[1] });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].field).toBe('id');
    });
  });

  // ---------------------------------------------------------------------------------------
  // Creating
  // ---------------------------------------------------------------------------------------

  describe('POST /users/', () => {
    it('creates a user of any role and organisation who can then sign in', async () => {
      const body = staffBody({ role: 7, location: 5, email: 'org.admin@example.org' });
      const created = await t.api('POST', '/users/', { token: tokens[1], body });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ userName: body.userName, role: 7, location: 5, active: true });
      expect(created.body).not.toHaveProperty('passwordHash');
      expect(created.body).not.toHaveProperty('password');
      expect(await t.login(body.userName, PASSWORD)).toBeTruthy();
    });

    it('creates a disabled account when asked', async () => {
      const body = staffBody({ active: false });
      expect((await t.api('POST', '/users/', { token: tokens[1], body })).status).toBe(201);
      const login = await t.api('POST', '/login', { body: { userName: body.userName, password: PASSWORD } });
      expect(login.status).toBe(401);
    });

    it('refuses a short password with the field message and stores nothing', async () => {
      const body = staffBody({ password: 'short' });
      const { status, body: answer } = await t.api('POST', '/users/', { token: tokens[1], body });
      expect(status).toBe(400);
      expect(answer.errors).toEqual([{ field: 'password', message: 'password must have at least 8 characters' }]);
      expect(await countNamed(body.userName)).toBe(0);
    });

    it('answers 409 duplicate entry to a taken user name (any case) or user id', async () => {
      const existing = await newUser(3);
      const sameName = await t.api('POST', '/users/', {
        token: tokens[1],
        body: staffBody({ userName: existing.userName.toUpperCase(), location: ORG }),
      });
      expect(sameName.status).toBe(409);
      expect(sameName.body.message).toBe('duplicate entry');
      const sameId = await t.api('POST', '/users/', { token: tokens[1], body: staffBody({ userId: existing.userId, location: ORG }) });
      expect(sameId.status).toBe(409);
      expect(sameId.body.message).toBe('duplicate entry');
    });
  });

  describe('POST /users/createStaff', () => {
    it('files role 7 staff under its own organisation', async () => {
      const body = staffBody({ role: 5 });
      const { status, body: created } = await t.api('POST', '/users/createStaff', { token: tokens[7], body });
      expect(status).toBe(201);
      expect(created).toMatchObject({ role: 5, location: ORG, createdBy: ids[7] });
      const explicit = await t.api('POST', '/users/createStaff', { token: tokens[7], body: staffBody({ location: ORG }) });
      expect(explicit.status).toBe(201);
    });

    it('lets role 1 create staff of any organisation and role', async () => {
      const { status, body } = await t.api('POST', '/users/createStaff', {
        token: tokens[1],
        body: staffBody({ role: 7, location: OTHER_ORG }),
      });
      expect(status).toBe(201);
      expect(body).toMatchObject({ role: 7, location: OTHER_ORG });
    });

    it('refuses role 7 another organisation', async () => {
      const body = staffBody({ location: OTHER_ORG });
      const { status, body: answer } = await t.api('POST', '/users/createStaff', { token: tokens[7], body });
      expect(status).toBe(403);
      expect(answer.message).toBe('You can only manage the staff of your own organisation');
      expect(await countNamed(body.userName)).toBe(0);
    });

    it.each([1, 2, 7] as const)('refuses role 7 creating a role %i user', async (role) => {
      const body = staffBody({ role });
      const { status, body: answer } = await t.api('POST', '/users/createStaff', { token: tokens[7], body });
      expect(status).toBe(403);
      expect(answer.message).toBe(`You cannot manage users of role ${role}; allowed roles: 3, 4, 5, 6`);
      expect(await countNamed(body.userName)).toBe(0);
    });

    it('refuses a role 7 without organisation', async () => {
      const lone = unique('u7_');
      await t.createUserWithoutOrganisation({ userName: lone, password: PASSWORD, role: 7 }); // made before organisations were required (ADR-0007)
      const token = await t.login(lone, PASSWORD);
      const { status, body } = await t.api('POST', '/users/createStaff', { token, body: staffBody() });
      expect(status).toBe(403);
      expect(body.message).toBe('An account without an organisation cannot manage staff');
    });

    it('refuses a bad body with field messages and stores nothing', async () => {
      const body = staffBody({ fullName: 'X', role: 8 });
      const { status, body: answer } = await t.api('POST', '/users/createStaff', { token: tokens[7], body });
      expect(status).toBe(400);
      expect(answer.errors).toEqual(
        expect.arrayContaining([
          { field: 'fullName', message: 'fullName must have at least 2 characters' },
          { field: 'role', message: 'role must be one of: 1, 2, 3, 4, 5, 6, 7' },
        ]),
      );
      expect(await countNamed(body.userName)).toBe(0);
    });

    it('answers 409 to a taken user name', async () => {
      const existing = await newUser(4);
      const { status, body } = await t.api('POST', '/users/createStaff', {
        token: tokens[7],
        body: staffBody({ userName: existing.userName }),
      });
      expect(status).toBe(409);
      expect(body.message).toBe('duplicate entry');
    });
  });

  // ---------------------------------------------------------------------------------------
  // Editing
  // ---------------------------------------------------------------------------------------

  describe('PUT /users/{id}', () => {
    it('lets role 1 change role, organisation, details and reset the password', async () => {
      const u = await newUser(3);
      const body = { role: 6, location: OTHER_ORG, fullName: 'Moved Person', phone: '+243 970 000 000', password: 'reset-pass-1' };
      const { status, body: row } = await t.api('PUT', `/users/${u.userId}`, { token: tokens[1], body });
      expect(status).toBe(200);
      expect(row).toMatchObject({ role: 6, location: OTHER_ORG, fullName: 'Moved Person', phone: '+243 970 000 000', updatedBy: ids[1] });
      expect(row).not.toHaveProperty('passwordHash');
      expect(await t.login(u.userName, 'reset-pass-1')).toBeTruthy();
      expect((await t.api('POST', '/login', { body: { userName: u.userName, password: PASSWORD } })).status).toBe(401);
    });

    it('refuses a bad body with field messages and changes nothing', async () => {
      const u = await newUser(3);
      const { status, body } = await t.api('PUT', `/users/${u.userId}`, {
        token: tokens[1],
        body: { role: 9, email: 'nope', fullName: 'Kept' },
      });
      expect(status).toBe(400);
      expect(body.errors).toEqual(
        expect.arrayContaining([
          { field: 'role', message: 'role must be one of: 1, 2, 3, 4, 5, 6, 7' },
          { field: 'email', message: 'email is not valid' },
        ]),
      );
      expect(await stored(u.userId)).toMatchObject({ role: 3, email: null });
    });

    it('answers 404 to an unknown id', async () => {
      const { status } = await t.api('PUT', `/users/${UNKNOWN_ID}`, { token: tokens[1], body: { fullName: 'Nobody' } });
      expect(status).toBe(404);
    });

    it('answers 409 to a rename onto a taken user name', async () => {
      const [a, b] = [await newUser(3), await newUser(3)];
      const { status, body } = await t.api('PUT', `/users/${a.userId}`, { token: tokens[1], body: { userName: b.userName.toUpperCase() } });
      expect(status).toBe(409);
      expect(body.message).toBe('duplicate entry');
      expect((await stored(a.userId)).userName).toBe(a.userName);
    });

    it('accepts an edit based on the version just read, even of a new user', async () => {
      const u = await newUser(3);
      const read = (await t.api('GET', `/users/${u.userId}`, { token: tokens[1] })).body;
      const { status } = await t.api('PUT', `/users/${u.userId}`, {
        token: tokens[1],
        body: { fullName: 'Based On Read', updatedAt: read.updatedAt },
      });
      expect(status).toBe(200);
    });

    it('answers 409 conflict when the record changed since the edit began', async () => {
      const u = await newUser(3);
      const before = (await t.api('GET', `/users/${u.userId}`, { token: tokens[1] })).body;
      await t.api('PUT', `/users/${u.userId}`, { token: tokens[1], body: { fullName: 'First Edit' } });
      const late = await t.api('PUT', `/users/${u.userId}`, {
        token: tokens[1],
        body: { fullName: 'Late Edit', updatedAt: before.updatedAt },
      });
      expect(late.status).toBe(409);
      expect(late.body.message).toBe('conflict');
      expect(late.body.server.fullName).toBe('First Edit');
    });

    it('keeps an administrator from demoting or deactivating itself', async () => {
      for (const body of [{ role: 3 }, { active: false }]) {
        const { status, body: answer } = await t.api('PUT', `/users/${ids[1]}`, { token: tokens[1], body });
        expect(status).toBe(403);
        expect(answer.message).toBe('You cannot change your own role or deactivate your own account');
      }
      expect(await stored(ids[1])).toMatchObject({ role: 1, active: true });
    });
  });

  describe('PUT /users/staff/{id}', () => {
    it('lets role 7 edit, reset and deactivate the staff of its organisation', async () => {
      const u = await newUser(4);
      const body = { fullName: 'Edited By Org', role: 6, password: 'org-reset-1' };
      const { status, body: row } = await t.api('PUT', `/users/staff/${u.userId}`, { token: tokens[7], body });
      expect(status).toBe(200);
      expect(row).toMatchObject({ fullName: 'Edited By Org', role: 6, location: ORG });
      expect(await t.login(u.userName, 'org-reset-1')).toBeTruthy();
    });

    it('lets role 1 edit anyone through it', async () => {
      const { status, body } = await t.api('PUT', `/users/staff/${outsider}`, { token: tokens[1], body: { phone: '+243 990 000 001' } });
      expect(status).toBe(200);
      expect(body.phone).toBe('+243 990 000 001');
    });

    it('refuses role 7 on another organisation, changing nothing', async () => {
      const { status, body } = await t.api('PUT', `/users/staff/${outsider}`, { token: tokens[7], body: { active: false } });
      expect(status).toBe(403);
      expect(body.message).toBe('You can only manage the staff of your own organisation');
      expect((await stored(outsider)).active).toBe(true);
    });

    it('refuses role 7 moving staff out of its organisation or giving roles 1, 2 or 7', async () => {
      const u = await newUser(4);
      for (const body of [{ location: OTHER_ORG }, { role: 1 }, { role: 2 }, { role: 7 }]) {
        expect((await t.api('PUT', `/users/staff/${u.userId}`, { token: tokens[7], body })).status).toBe(403);
      }
      expect(await stored(u.userId)).toMatchObject({ role: 4, location: ORG });
    });

    it('refuses role 7 on its peers and on itself', async () => {
      const peer = await newUser(7);
      for (const id of [peer.userId, ids[7]]) {
        const { status, body } = await t.api('PUT', `/users/staff/${id}`, { token: tokens[7], body: { active: false } });
        expect(status).toBe(403);
        expect(body.message).toBe('You cannot manage users of role 7; allowed roles: 3, 4, 5, 6');
      }
      expect((await stored(ids[7])).active).toBe(true);
    });

    it('validates, answers 404 and 409', async () => {
      const u = await newUser(4);
      const bad = await t.api('PUT', `/users/staff/${u.userId}`, { token: tokens[7], body: { password: 'short', userName: 'a b' } });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'password', message: 'password must have at least 8 characters' },
          { field: 'userName', message: 'userName is not valid' },
        ]),
      );
      expect((await t.api('PUT', `/users/staff/${UNKNOWN_ID}`, { token: tokens[7], body: { fullName: 'Nobody' } })).status).toBe(404);
      const other = await newUser(4);
      const dup = await t.api('PUT', `/users/staff/${u.userId}`, { token: tokens[7], body: { userName: other.userName } });
      expect(dup.status).toBe(409);
      expect((await stored(u.userId)).userName).toBe(u.userName);
    });
  });

  describe('PUT /users/self/{id}', () => {
    it.each(ROLES)('lets role %i edit its own contact details', async (role) => {
      const body = { fullName: `Self Edited ${role}`, email: `self${role}@example.org`, phone: '+243 810 000 000' };
      const { status, body: row } = await t.api('PUT', `/users/self/${ids[role]}`, { token: tokens[role], body });
      expect(status).toBe(200);
      expect(row).toMatchObject({ ...body, role });
    });

    it.each([{ role: 1 }, { location: 5 }, { active: false }, { userName: 'renamed' }, { password: 'new-pass-123' }])(
      'cannot change %o of its own record',
      async (change) => {
        const [field] = Object.keys(change);
        const { status, body } = await t.api('PUT', `/users/self/${ids[3]}`, { token: tokens[3], body: { fullName: 'Sneaky', ...change } });
        expect(status).toBe(400);
        expect(body.errors).toEqual([{ field, message: `${field} is not a known field` }]);
        expect(await stored(ids[3])).toMatchObject({ role: 3, location: ORG, active: true });
        expect((await stored(ids[3])).fullName).not.toBe('Sneaky');
      },
    );

    it('refuses a bad e-mail and changes nothing', async () => {
      const { status, body } = await t.api('PUT', `/users/self/${ids[5]}`, { token: tokens[5], body: { email: 'not-an-email' } });
      expect(status).toBe(400);
      expect(body.errors).toEqual([{ field: 'email', message: 'email is not valid' }]);
      expect((await stored(ids[5])).email).not.toBe('not-an-email');
    });

    it('answers 403 (not 404) to an id that is not the caller, known or not', async () => {
      const { status, body } = await t.api('PUT', `/users/self/${UNKNOWN_ID}`, { token: tokens[4], body: { fullName: 'Ghost' } });
      expect(status).toBe(403);
      expect(body.message).toBe('You can only edit your own profile here');
    });
  });

  // ---------------------------------------------------------------------------------------
  // Passwords and deactivation
  // ---------------------------------------------------------------------------------------

  describe('POST /users/changepass', () => {
    it.each(ROLES.filter((r) => r !== 1))('lets role %i change its password and sign in with the new one', async (role) => {
      const u = await newUser(role);
      const token = await t.login(u.userName, PASSWORD);
      const { status, body } = await t.api('POST', '/users/changepass', {
        token,
        body: { oldPassword: PASSWORD, newPassword: 'brand-new-pass' },
      });
      expect(status).toBe(200);
      expect(body).toEqual({ message: 'Password changed', token: expect.any(String) });
      expect((await t.api('GET', `/users/${u.userId}`, { token: body.token })).status).toBe(200);
      expect((await t.api('GET', `/users/${u.userId}`, { token })).status).toBe(401);
      expect(await t.login(u.userName, 'brand-new-pass')).toBeTruthy();
      expect((await t.api('POST', '/login', { body: { userName: u.userName, password: PASSWORD } })).status).toBe(401);
    });

    it('refuses a wrong old password with a clear message and changes nothing', async () => {
      const u = await newUser(4);
      const token = await t.login(u.userName, PASSWORD);
      const { status, body } = await t.api('POST', '/users/changepass', {
        token,
        body: { oldPassword: 'not-my-password', newPassword: 'brand-new-pass' },
      });
      expect(status).toBe(400);
      expect(body.message).toBe('The current password is not correct; nothing was changed');
      expect(body.errors).toEqual([{ field: 'oldPassword', message: body.message }]);
      const french = await t.api('POST', '/users/changepass', {
        token,
        body: { oldPassword: 'not-my-password', newPassword: 'brand-new-pass' },
        headers: { 'accept-language': 'fr' },
      });
      expect(french.body.message).toBe("Le mot de passe actuel n'est pas correct ; rien n'a été modifié");
      expect(await t.login(u.userName, PASSWORD)).toBeTruthy();
    });

    it('refuses a new password shorter than the schema allows, or equal to the old one', async () => {
      const u = await newUser(4);
      const token = await t.login(u.userName, PASSWORD);
      const short = await t.api('POST', '/users/changepass', { token, body: { oldPassword: PASSWORD, newPassword: 'short' } });
      expect(short.status).toBe(400);
      expect(short.body.errors).toEqual([{ field: 'newPassword', message: 'newPassword must have at least 8 characters' }]);
      const same = await t.api('POST', '/users/changepass', { token, body: { oldPassword: PASSWORD, newPassword: PASSWORD } });
      expect(same.status).toBe(400);
      expect(same.body.errors[0].field).toBe('newPassword');
      expect(await t.login(u.userName, PASSWORD)).toBeTruthy();
    });
  });

  describe('deactivation', () => {
    it('stops sign-in and existing tokens at once; reactivation restores sign-in, not the old sessions', async () => {
      const u = await newUser(4);
      const token = await t.login(u.userName, PASSWORD);
      const off = await t.api('PUT', `/users/staff/${u.userId}`, { token: tokens[7], body: { active: false } });
      expect(off.status).toBe(200);
      expect(off.body.active).toBe(false);
      // Sign-in gives one answer to every failure (ADR-0002); the session's own requests say why.
      const login = await t.api('POST', '/login', { body: { userName: u.userName, password: PASSWORD } });
      expect([login.status, login.body.code]).toEqual([401, 'auth.badCredentials']);
      expect(login.body.message).toBe('Invalid user name or password');
      const old = await t.api('GET', `/users/${u.userId}`, { token });
      expect(old.status).toBe(401);
      expect(old.body.message).toBe('This account is disabled. Ask an administrator.');

      expect((await t.api('PUT', `/users/${u.userId}`, { token: tokens[1], body: { active: true } })).status).toBe(200);
      const ended = await t.api('GET', `/users/${u.userId}`, { token });
      expect(ended.status).toBe(401);
      expect(ended.body.message).toBe('This session has ended (password changed or account deactivated). Please sign in again.');
      const fresh = await t.login(u.userName, PASSWORD);
      expect((await t.api('GET', `/users/${u.userId}`, { token: fresh })).status).toBe(200);
    });
  });
});
