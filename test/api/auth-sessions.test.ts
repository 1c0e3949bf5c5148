// Sessions and accounts (ADR-0002), over HTTP against a real database: sign-in throttling (per user name and per
// address), sessions ended by a password change, a reset or a deactivation (API and open change
// streams), tokens without expiry refused, and no token, password or search text in the log.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { serviceProvider } from '../../schemas/index';
import { backends } from '../helpers/db';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

const PASSWORD = 'password-123';
const SESSION_ENDED = 'This session has ended (password changed or account deactivated). Please sign in again.';

describe.each(backends)('sessions and sign-in on %s', (backend) => {
  let t: TestServer;
  let adminToken: string;
  const log: string[] = [];
  let seq = 0;
  const unique = (prefix: string) => `${prefix}${(seq += 1)}`;

  beforeAll(async () => {
    // Behind a trusted proxy the client's address comes from X-Forwarded-For, so each test
    // signs in from addresses of its own and the per-address limit of one cannot touch another.
    t = await startTestServer({ backend, config: { logLevel: 'info', trustProxy: 1 }, logStream: { write: (line) => log.push(line) } });
    await ensureOrganisations(t.server.db);
    adminToken = await t.login(t.admin.userName, t.admin.password);
  });
  afterAll(() => t?.close());

  async function newUser(role = 4, location = 1) {
    const userName = unique('user');
    const { userId } = await t.createUser({ userName, password: PASSWORD, role, location });
    return { userId, userName };
  }

  /** POST /api/login from `address`, with the answer's headers. */
  async function signIn(userName: string, password: string, address: string, lang = 'en') {
    const response = await fetch(`${t.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': lang, 'x-forwarded-for': address },
      body: JSON.stringify({ userName, password }),
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
  }

  /** An open change stream: `closed` settles when the server ends it. */
  async function openStream(token: string) {
    const controller = new AbortController();
    const response = await fetch(await t.streamUrl(token), { signal: controller.signal });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const read = async () => {
      const { value, done } = await reader.read();
      if (value) text += new TextDecoder().decode(value);
      return done;
    };
    while (!text.includes(': connected')) if (await read()) throw new Error('stream ended before it started');
    return {
      /** Resolves when the server ends the stream (the test's timeout fails it otherwise). */
      closed: async () => {
        while (!(await read())) {
          /* keep reading */
        }
      },
      /** Resolves when a change event of `table` arrives. */
      event: async (table: string) => {
        while (!text.includes(`"table":"${table}"`)) if (await read()) throw new Error(`stream ended before a ${table} event`);
      },
      abort: () => controller.abort(),
    };
  }

  describe('sign-in throttling', () => {
    it('answers 429 with Retry-After after 5 failures for one user name, in both languages, even with the right password', async () => {
      const { userName } = await newUser();
      for (let i = 0; i < 5; i++) expect((await signIn(userName, 'wrong-password', '10.0.1.1')).status).toBe(401);
      const refused = await signIn(userName, 'wrong-password', '10.0.1.1');
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(15 * 60);
      expect(refused.body).toMatchObject({ statusCode: 429, retryAfter: Number(refused.retryAfter) });
      expect(refused.body.message).toBe('Too many failed sign-in attempts. Please wait 15 min before trying again.');
      const french = await signIn(userName.toUpperCase(), PASSWORD, '10.0.1.2', 'fr');
      expect(french.status).toBe(429);
      expect(french.body.message).toBe('Trop de tentatives de connexion échouées. Veuillez patienter 15 min avant de réessayer.');
    });

    it('lets a success clear the failures of its user name', async () => {
      const { userName } = await newUser();
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 4; i++) expect((await signIn(userName, 'wrong-password', '10.0.2.1')).status).toBe(401);
        expect((await signIn(userName, PASSWORD, '10.0.2.1')).status).toBe(200);
      }
    });

    it('answers 429 to an address after 30 failures over several user names, and not to another address', async () => {
      for (let i = 0; i < 30; i++) expect((await signIn(`nobody${Math.floor(i / 3)}`, 'wrong-password', '10.0.3.1')).status).toBe(401);
      const { userName } = await newUser();
      const refused = await signIn(userName, PASSWORD, '10.0.3.1');
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect((await signIn(userName, PASSWORD, '10.0.3.2')).status).toBe(200);
    });
  });

  describe('a password change, a reset or a deactivation ends the other sessions', () => {
    it('keeps the session that changed its password, with the new token of the answer', async () => {
      const { userId, userName } = await newUser();
      const mine = await t.login(userName, PASSWORD);
      const other = await t.login(userName, PASSWORD);
      const changed = await t.api('POST', '/users/changepass', {
        token: mine,
        body: { oldPassword: PASSWORD, newPassword: 'another-pass-1' },
      });
      expect(changed.status).toBe(200);
      for (const old of [mine, other]) {
        const refused = await t.api('GET', `/users/${userId}`, { token: old });
        expect(refused.status).toBe(401);
        expect(refused.body.message).toBe(SESSION_ENDED);
      }
      expect((await t.api('GET', `/users/${userId}`, { token: changed.body.token })).status).toBe(200);
    });

    it("ends the user's sessions at an administrator's reset; a new sign-in works", async () => {
      const { userId, userName } = await newUser();
      const before = await t.login(userName, PASSWORD);
      // A request just before the reset: the session check has the user row at hand.
      expect((await t.api('GET', '/sproviers', { token: before })).status).toBe(200);
      expect((await t.api('PUT', `/users/${userId}`, { token: adminToken, body: { password: 'reset-pass-123' } })).status).toBe(200);
      expect((await t.api('GET', '/sproviers', { token: before })).status).toBe(401);
      expect((await t.api('GET', `/users/${userId}`, { token: before })).status).toBe(401);
      const after = await t.login(userName, 'reset-pass-123');
      // A reset password is temporary: the new session may change it and nothing else (ADR-0003).
      const gated = await t.api('GET', `/users/${userId}`, { token: after });
      expect([gated.status, gated.body.code]).toEqual([403, 'auth.mustChangePassword']);
      const changed = await t.api('POST', '/users/changepass', {
        token: after,
        body: { oldPassword: 'reset-pass-123', newPassword: 'chosen-after-reset-7' },
      });
      expect((await t.api('GET', `/users/${userId}`, { token: changed.body.token })).status).toBe(200);
    });

    it('leaves the sessions alone on other edits', async () => {
      const { userId, userName } = await newUser();
      const token = await t.login(userName, PASSWORD);
      expect((await t.api('PUT', `/users/${userId}`, { token: adminToken, body: { fullName: 'Renamed Person' } })).status).toBe(200);
      expect((await t.api('GET', `/users/${userId}`, { token })).status).toBe(200);
    });

    it('closes an open change stream at a password change, and not the streams of other users', async () => {
      const changing = await newUser(3);
      const bystander = await newUser(3);
      const mine = await t.login(changing.userName, PASSWORD);
      const stream = await openStream(await t.login(changing.userName, PASSWORD));
      const other = await openStream(await t.login(bystander.userName, PASSWORD));
      try {
        await t.api('POST', '/users/changepass', { token: mine, body: { oldPassword: PASSWORD, newPassword: 'another-pass-1' } });
        await stream.closed();
        // The bystander's stream heard the same users change and still delivers events.
        expect((await t.api('POST', '/sproviers/', { token: adminToken, body: sampleBody(serviceProvider) })).status).toBe(201);
        await other.event('tbl_serviceprovider');
      } finally {
        stream.abort();
        other.abort();
      }
    });

    it('ends a session at its next request once a change of the users table made elsewhere is heard', async () => {
      // Another server process or a script writes the table: this process learns it only from
      // the change notification, and must not answer from the user row it kept meanwhile.
      const { userId, userName } = await newUser();
      const token = await t.login(userName, PASSWORD);
      expect((await t.api('GET', '/sproviers', { token })).status).toBe(200);
      const heard = new Promise<void>((resolve) => {
        const stop = t.server.changes.subscribe((change) => {
          if (change.user !== userId) return;
          stop();
          resolve();
        });
      });
      await t.server.db.query('UPDATE "users" SET "active" = false WHERE "userId" = $1', [userId]);
      await heard;
      const refused = await t.api('GET', '/sproviers', { token });
      expect(refused.status).toBe(401);
    });

    it('closes an open change stream at a deactivation, and refuses to open it again', async () => {
      const { userId, userName } = await newUser(3);
      const token = await t.login(userName, PASSWORD);
      const stream = await openStream(token);
      try {
        expect((await t.api('PUT', `/users/${userId}`, { token: adminToken, body: { active: false } })).status).toBe(200);
        await stream.closed();
      } finally {
        stream.abort();
      }
      expect((await t.api('POST', '/sync/ticket', { token })).status).toBe(401);
    });
  });

  describe('tokens', () => {
    const signed = (claims: Record<string, unknown>, sub: string, exp?: number) => {
      const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(sub).setIssuedAt();
      if (exp !== undefined) jwt.setExpirationTime(exp);
      return jwt.sign(new TextEncoder().encode(t.config.jwtSecret));
    };

    it('refuses a well-signed token without an expiry, on the API and the change stream', async () => {
      const { userId } = await newUser();
      const forever = await signed({ role: 4, ver: 0, sid: 'session' }, userId);
      const refused = await t.api('GET', `/users/${userId}`, { token: forever });
      expect(refused.status).toBe(401);
      expect(refused.body.message).toBe('invalid token');
      expect((await t.api('POST', '/sync/ticket', { token: forever })).status).toBe(401);
      // The same token with an expiry is accepted: only the missing exp was refused.
      const bounded = await signed({ role: 4, ver: 0, sid: 'session' }, userId, Math.floor(Date.now() / 1000) + 60);
      expect((await t.api('GET', `/users/${userId}`, { token: bounded })).status).toBe(200);
    });

    it('refuses a well-signed token without a token version', async () => {
      const { userId } = await newUser();
      const unversioned = await signed({ role: 4, sid: 'session' }, userId, Math.floor(Date.now() / 1000) + 60);
      expect((await t.api('GET', `/users/${userId}`, { token: unversioned })).status).toBe(401);
    });
  });

  it('writes no token, password or search text to the log', async () => {
    const { userName } = await newUser(3);
    const secretPassword = 'Secret-Pass-4242';
    const { userId } = await t.createUser({ userName: `${userName}x`, password: secretPassword, role: 3, location: 1 });
    const token = await t.login(`${userName}x`, secretPassword);
    const stream = await openStream(token);
    stream.abort();
    await t.api('GET', '/users?q=Kabongo-Mwamba', { token: adminToken });
    await t.api('GET', `/users/${userId}`, { token });
    const text = log.join('');
    expect(text).toContain('/api/sync/stream?[hidden]'); // the stream request was logged, without its query
    for (const secret of [token, token.split('.')[2], secretPassword, 'Kabongo-Mwamba']) expect(text).not.toContain(secret);
  });
});
