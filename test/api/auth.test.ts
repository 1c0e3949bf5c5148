// Sign-in, tokens and the role gate, over HTTP against a real database.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/db';
import { startTestServer, type TestServer } from '../helpers/server';

describe.each(backends)('auth on %s', (backend) => {
  let t: TestServer;
  let adminToken: string;
  const staticDir = mkdtempSync(path.join(tmpdir(), 'icrs-static-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>ICRS test app</title>');

  beforeAll(async () => {
    t = await startTestServer({ backend, config: { staticDir } });
    adminToken = await t.login(t.admin.userName, t.admin.password);
    await t.createUser({ userName: 'reporter', password: 'reporter-pass', role: 2 });
    await t.createUser({ userName: 'orgadmin', password: 'orgadmin-pass', role: 7, location: 3 });
    await t.createUser({ userName: 'colleague', password: 'colleague-pass', role: 4, location: 3 });
    await t.createUser({ userName: 'outsider', password: 'outsider-pass', role: 4, location: 9 });
  });
  afterAll(() => t?.close());

  it('signs in the first administrator and answers the spec shape', async () => {
    const { status, body } = await t.api('POST', '/login', { body: { userName: 'ADMIN', password: t.admin.password } });
    expect(status).toBe(200);
    expect(body.result.user).toMatchObject({ userName: 'admin', role: 1, location: 0 });
    expect(body.result.user.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(body.result.user).not.toHaveProperty('passwordHash');
  });

  it('gives the same message for a wrong password and an unknown user, in the asked language', async () => {
    const wrong = await t.api('POST', '/login', { body: { userName: 'admin', password: 'nope' } });
    const unknown = await t.api('POST', '/login', { body: { userName: 'nobody', password: 'nope' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe('Invalid user name or password');
    expect(unknown.body.message).toBe(wrong.body.message);
    const french = await t.api('POST', '/login', { body: { userName: 'admin', password: 'nope' }, headers: { 'accept-language': 'fr' } });
    expect(french.body.message).toBe("Nom d'utilisateur ou mot de passe incorrect");
  });

  it('refuses an incomplete sign-in with a message per field', async () => {
    const { status, body } = await t.api('POST', '/login', { body: { userName: '' } });
    expect(status).toBe(400);
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { field: 'userName', message: 'userName must have at least 1 characters' },
        { field: 'password', message: 'password is required' },
      ]),
    );
  });

  it('answers 400, not 500, to a body that is not JSON', async () => {
    const response = await fetch(`${t.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
      body: '{oops',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(/not valid JSON/);
  });

  it('needs a token on every other endpoint', async () => {
    const { status, body } = await t.api('GET', '/users');
    expect(status).toBe(401);
    expect(body.message).toBe('No authorization token was found');
  });

  it('refuses a tampered token with "invalid signature"', async () => {
    const [header, payload, signature] = adminToken.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), role: 1, sub: 'x' })).toString(
      'base64url',
    );
    for (const token of [`${header}.${forged}.${signature}`, `${header}.${payload}.${signature.slice(0, -4)}AAAA`]) {
      const { status, body } = await t.api('GET', '/users', { token });
      expect(status).toBe(401);
      expect(body.message).toBe('invalid signature');
    }
  });

  it('refuses an expired token with "jwt expired"', async () => {
    const me = await t.api('POST', '/login', { body: { userName: 'admin', password: t.admin.password } });
    const expired = await t.server.tokens.sign({ sub: me.body.result.user.userId, role: 1, ver: 0, sid: 'session-1' }, -60);
    const { status, body } = await t.api('GET', '/users', { token: expired });
    expect(status).toBe(401);
    expect(body.message).toBe('jwt expired');
  });

  it('refuses a token that is not a JWT', async () => {
    const { status, body } = await t.api('GET', '/users', { token: 'not-a-token' });
    expect(status).toBe(401);
    expect(body.message).toBe('invalid token');
  });

  it('answers 403 to a role outside the matrix', async () => {
    const reporter = await t.login('reporter', 'reporter-pass');
    expect((await t.api('GET', '/users', { token: reporter })).status).toBe(403);
    const colleague = await t.login('colleague', 'colleague-pass');
    const denied = await t.api('POST', '/users/', {
      token: colleague,
      body: { userName: 'x1234', password: 'password1', role: 3, fullName: 'X Y' },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('You are not allowed to do this');
  });

  it('lets role 7 list only the staff of its own organisation', async () => {
    const orgAdmin = await t.login('orgadmin', 'orgadmin-pass');
    const { status, body } = await t.api('GET', '/users', { token: orgAdmin });
    expect(status).toBe(200);
    expect(body.rows.map((u: { userName: string }) => u.userName).sort()).toEqual(['colleague', 'orgadmin']);
    expect(body.total).toBe(2);
  });

  it('lists every user for role 1 without password hashes', async () => {
    const { status, body } = await t.api('GET', '/users?pageSize=5&page=1', { token: adminToken });
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 5, page: 1, pageSize: 5 });
    expect(body.rows).toHaveLength(5);
    expect(JSON.stringify(body)).not.toContain('passwordHash');
  });

  it('keeps user names unique whatever their case', async () => {
    const { status, body } = await t.api('POST', '/users/', {
      token: adminToken,
      body: { userName: 'Reporter', password: 'password1', role: 2, fullName: 'R Two' },
    });
    expect(status).toBe(409);
    expect(body.message).toBe('duplicate entry');
  });

  it('reports the database in /api/health without a token', async () => {
    const { status, body } = await t.api('GET', '/health');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', database: 'up', kind: backend });
  });

  it('gives client routes the app, and unknown API paths and missing build files a JSON 404', async () => {
    const page = await fetch(`${t.url}/users/edit/123`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('ICRS test app');
    // A file of another release (a rolling update) is not the app's page under its name.
    for (const file of ['/assets/MapCanvas-Gone1234.js', '/assets/i18n/xx.json', '/sw-old.js', '/registerSW.js?v=2']) {
      const missing = await fetch(`${t.url}${file}`);
      expect(missing.status, file).toBe(404);
      expect(missing.headers.get('content-type'), file).toMatch(/^application\/json/);
    }
    const api = await t.api('GET', '/no-such-call', { token: adminToken });
    expect(api.status).toBe(404);
    expect(api.body.message).toBe('Not found: /api/no-such-call');
  });
});
