// ADR-0020, the server's side of device privacy: no API answer is kept by the browser's HTTP
// cache (Cache-Control: no-store, client files included), the device's unlock secret
// (GET /api/session/device: one per user, rotated at the events of device-lock.test.ts, never in another answer), sign-out's
// Clear-Site-Data, and error answers with a machine-readable `code` (a deactivated account's
// token gets 401 `auth.inactive` on every route).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { backends } from '../helpers/db';
import { startWithStaff } from '../helpers/api/staff';
import { multipartRequest, PNG_1PX } from '../helpers/records';
import { type TestServer } from '../helpers/server';

const A = 2; // organisation 'ADC'
const ANY_ID = '01900000-0000-7000-8000-00000000dead';
/** Routes without a bearer token: sign-in, sign-out, health, settings; the stream takes its own. */
const PUBLIC_PATHS = ['/login', '/logout', '/session/lock', '/config', '/health', '/health/ready', '/health/live', '/sync/stream'];

describe.each(backends)('device privacy on %s', (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  const ids: Record<string, string> = {};
  /** Client files and record images, as the app fetches them. */
  const files: Record<string, string> = {};

  const raw = (method: string, path: string, who?: string, init: RequestInit = {}) =>
    fetch(`${t.url}/api${path}`, {
      method,
      ...init,
      headers: {
        'accept-language': 'en',
        ...(who ? { authorization: `Bearer ${token[who]}` } : {}),
        ...(init.headers as Record<string, string>),
      },
    });

  /** Every documented route, as [METHOD, path with each {param} filled with an unknown id]. */
  async function routeTable(): Promise<[string, string][]> {
    const docs = (await t.api('GET', '/docs')).body as { paths: Record<string, Record<string, unknown>> };
    return Object.entries(docs.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((m) => m !== 'parameters')
        .map((m) => [m.toUpperCase(), path.replace(/^\/api/, '').replace(/\{[^}]+\}/g, ANY_ID)] as [string, string]),
    );
  }

  beforeAll(async () => {
    t = await startWithStaff({ backend }, { a3: [3, A], a4: [4, A], gone: [3, A] }, { prefix: 'user' }, { token, id: ids });
    const as = (method: string, path: string, body: unknown) => t.api(method, path, { token: token.a3, body });
    // A job image, a client's photo and a referral attachment.
    const jb = sampleBody(entityByName.job, {});
    const job = await multipartRequest(t, 'POST', '/jobs/', token.a3, jb, { jb_img1: PNG_1PX });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    files.job = `/imgs/getById?id=${String(jb.jb_Id)}&imagename=${String(job.body.jb_img1)}`;
    const client: Record<string, unknown> = { ...sampleBody(entityByName.profile, {}), prof_Reg_No: registrationNumber('ADC') };
    expect((await as('POST', '/profile/', client)).status).toBe(201);
    expect(
      (await multipartRequest(t, 'PUT', `/profile/images/${String(client.prof_Id)}`, token.a3, { img_for: 'photo' }, { file: PNG_1PX }))
        .status,
    ).toBe(200);
    files.photo = `/imgs/getfile?id=${String(client.prof_Id)}&filename=photo`;
    files.profileImages = `/profile/images/${String(client.prof_Id)}`;
    const provider = sampleBody(entityByName.serviceProvider, {});
    expect((await as('POST', '/sproviers/', provider)).status).toBe(201);
    const service = sampleBody(entityByName.service, { serviceProvider: String(provider.sp_Id) });
    expect((await as('POST', '/spDetail/', service)).status).toBe(201);
    expect((await t.api('POST', '/sverify/', { token: token.admin, body: { sp_Detail_Id: service.sp_Detail_Id, status: 1 } })).status).toBe(
      200,
    );
    const referral: Record<string, unknown> = {
      ...sampleBody(entityByName.referral, { profile: String(client.prof_Id), service: String(service.sp_Detail_Id) }),
      status: 'sent',
    };
    const made = await as('POST', '/referral/', referral);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const attached = await multipartRequest(t, 'PUT', `/referral/images/${String(referral.ref_Id)}`, token.a3, {}, { file: PNG_1PX });
    expect(attached.status, JSON.stringify(attached.body)).toBe(200);
    files.attachment = `/imgs/getrefimg?id=${String(referral.ref_Id)}&imagename=${String(attached.body.attachments[0].name)}`;
  });
  afterAll(() => t?.close());

  describe('Cache-Control: no-store on every API answer', () => {
    it('serves client files and record images no-store (they were private, max-age=86400)', async () => {
      for (const [what, path] of Object.entries(files)) {
        const response = await raw('GET', path, 'a3');
        expect(response.status, what).toBe(200);
        expect(response.headers.get('cache-control'), what).toBe('no-store');
      }
    });

    it('answers every documented route no-store, whatever the answer (200, 4xx), signed in or not', async () => {
      const routes = (await routeTable()).filter(([, path]) => path !== '/sync/stream');
      expect(routes.length).toBeGreaterThan(70);
      const cached: string[] = [];
      token.sweep = await t.login(t.admin.userName, t.admin.password); // sign-out in the sweep ends this one
      for (const [method, path] of routes) {
        for (const who of ['sweep', undefined]) {
          const response = await raw(method, path, who);
          await response.arrayBuffer();
          if (response.headers.get('cache-control') !== 'no-store')
            cached.push(`${who ?? 'anonymous'} ${method} ${path}: ${response.status} ${response.headers.get('cache-control')}`);
        }
      }
      expect(cached).toEqual([]);
    });

    it('answers no-store on sign-in, public settings, an unknown API path, a refused token and the change stream', async () => {
      const login = await raw('POST', '/login', undefined, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userName: 'user-a3', password: 'password-a3' }),
      });
      expect(login.headers.get('cache-control')).toBe('no-store');
      expect((await raw('GET', '/config')).headers.get('cache-control')).toBe('no-store');
      expect((await raw('GET', '/no-such-route')).headers.get('cache-control')).toBe('no-store');
      expect((await raw('GET', '/users', undefined, { headers: { authorization: 'Bearer nonsense' } })).headers.get('cache-control')).toBe(
        'no-store',
      );
      const controller = new AbortController();
      const stream = await fetch(await t.streamUrl(token.a3), { signal: controller.signal });
      expect(stream.status).toBe(200);
      expect(stream.headers.get('cache-control')).toBe('no-store');
      controller.abort();
    });
  });

  describe('GET /api/session/device', () => {
    const device = (who: string) => t.api('GET', '/session/device', { token: token[who] });

    it('answers the signed-in user and a 32-byte secret, the same on every call, no-store', async () => {
      const first = await device('a3');
      expect(first.status).toBe(200);
      expect(Object.keys(first.body).sort()).toEqual([
        'active',
        'deviceSecret',
        'exportSecret',
        'location',
        'previousSecrets',
        'role',
        'userId',
      ]);
      expect(first.body).toMatchObject({ userId: ids.a3, role: 3, location: A, active: true });
      expect(Buffer.from(first.body.deviceSecret as string, 'base64url')).toHaveLength(32);
      expect((await device('a3')).body.deviceSecret).toBe(first.body.deviceSecret);
      expect((await raw('GET', '/session/device', 'a3')).headers.get('cache-control')).toBe('no-store');
    });

    it('gives each user a secret of their own; any role may ask', async () => {
      const secrets = await Promise.all(['a3', 'a4', 'admin'].map(async (who) => (await device(who)).body.deviceSecret as string));
      expect(new Set(secrets).size).toBe(3);
    });

    // Rotations (sign-out, password change, reset, reactivation): test/api/device-lock.test.ts.

    it('refuses a request without a token (401) and never shows the secret in another answer', async () => {
      const anonymous = await t.api('GET', '/session/device');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.code).toBe('auth.noToken');
      const secrets = (await device('a3')).body as { deviceSecret: string; exportSecret: string };
      const answers = [
        await t.api('GET', `/users/${ids.a3}`, { token: token.a3 }),
        await t.api('GET', `/users/${ids.a3}`, { token: token.admin }),
        await t.api('GET', '/users?pageSize=200', { token: token.admin }),
        await t.api('GET', '/users/all', { token: token.admin }),
        await t.api('POST', '/login', { body: { userName: 'user-a3', password: 'password-a3' } }),
        await t.api('PUT', `/users/self/${ids.a3}`, { token: token.a3, body: { fullName: 'Agent A3' } }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(JSON.stringify(answer.body)).not.toContain(secrets.deviceSecret);
        expect(JSON.stringify(answer.body)).not.toContain(secrets.exportSecret);
        expect(JSON.stringify(answer.body)).not.toContain('deviceSecret');
      }
    });
  });

  describe('POST /api/logout', () => {
    it('answers 204 with Clear-Site-Data "cache", with a valid, a missing or a refused token', async () => {
      const leaving = await t.login('user-a3', 'password-a3');
      const tries: Record<string, string>[] = [{ authorization: `Bearer ${leaving}` }, {}, { authorization: 'Bearer not-a-token' }];
      for (const headers of tries) {
        const response = await raw('POST', '/logout', undefined, { headers });
        expect(response.status).toBe(204);
        expect(response.headers.get('clear-site-data')).toBe('"cache"');
        expect(response.headers.get('cache-control')).toBe('no-store');
      }
    });
  });

  describe('error answers carry a code', () => {
    it('names the message key beside the message, the same in both languages', async () => {
      const en = await raw('GET', '/users', undefined, { headers: { 'accept-language': 'en' } });
      const fr = await raw('GET', '/users', undefined, { headers: { 'accept-language': 'fr' } });
      const [enBody, frBody] = [await en.json(), await fr.json()];
      expect(enBody).toMatchObject({ statusCode: 401, code: 'auth.noToken' });
      expect(frBody.code).toBe('auth.noToken');
      expect((await t.api('GET', '/users', { token: token.a3 })).body).toMatchObject({ statusCode: 403, code: 'auth.forbidden' });
      expect((await t.api('GET', '/no-such-route')).body).toMatchObject({ statusCode: 404, code: 'http.notFound' });
      const invalid = await t.api('PUT', `/users/self/${ids.a3}`, { token: token.a3, body: { fullName: 'x' } });
      expect(invalid.body).toMatchObject({ statusCode: 400, code: 'validation.failed', errors: [{ field: 'fullName' }] });
      const badJson = await raw('POST', '/login', undefined, { headers: { 'content-type': 'application/json' }, body: '{' });
      expect(await badJson.json()).toMatchObject({ statusCode: 400, code: 'http.badJson' });
    });

    it('tells an ended session (auth.sessionEnded) from a deactivated account (auth.inactive) on every route and the stream', async () => {
      const stale = token.gone;
      token.gone = await t.login('user-gone', 'password-gone'); // the first token's session goes on
      expect(
        (await t.api('PUT', `/users/${ids.gone}`, { token: token.admin, body: { password: 'Bukavu-hills-temporary-3' } })).status,
      ).toBe(200);
      expect((await t.api('GET', `/users/${ids.gone}`, { token: stale })).body).toMatchObject({
        statusCode: 401,
        code: 'auth.sessionEnded',
      });
      const current = await t.login('user-gone', 'Bukavu-hills-temporary-3');
      expect((await t.api('PUT', `/users/${ids.gone}`, { token: token.admin, body: { active: false } })).status).toBe(200);
      const routes = (await routeTable()).filter(([, path]) => !PUBLIC_PATHS.includes(path));
      expect(routes.length).toBeGreaterThan(70);
      const wrong: string[] = [];
      for (const [method, path] of routes) {
        const response = await raw(method, path, undefined, { headers: { authorization: `Bearer ${current}` } });
        const body = await response.json().catch(() => ({}));
        if (response.status !== 401 || body.code !== 'auth.inactive')
          wrong.push(`${method} ${path}: ${response.status} ${String(body.code)}`);
      }
      expect(wrong).toEqual([]);
      const ticket = await t.api('POST', '/sync/ticket', { token: current });
      expect([ticket.status, ticket.body.code]).toEqual([401, 'auth.inactive']);
      // Sign-in gives one answer for every failure (ADR-0002): it does not tell a deactivated account.
      const again = await t.api('POST', '/login', { body: { userName: 'user-gone', password: 'Bukavu-hills-temporary-3' } });
      expect(again.body).toMatchObject({ statusCode: 401, code: 'auth.badCredentials' });
    });
  });
});
