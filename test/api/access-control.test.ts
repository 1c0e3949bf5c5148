// Access control, second round (docs/security.md "Access control, second round"), over HTTP on a real database: organisations required
// (§1), sign-out ending the session and the stream's ticket (§3), one throttle for every
// password check (§4), temporary passwords enforced by the server (§5), proxies, IPv6 and the
// hashing queue (§6), no self-verification (§7), and the smaller rules (§8).
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { entityByName } from '../../schemas/index';
import { buildApp, trustProxyOption } from '../../server/app';
import { configFromEnv } from '../../server/config';
import { backends } from '../helpers/db';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

const A = 2; // organisation 'ADC'

describe.each(backends)('access control on %s', (backend) => {
  let t: TestServer;
  let admin: string;
  let counter = 0;
  const unique = (prefix: string) => `${prefix}${++counter}${Date.now().toString(36)}`;

  beforeAll(async () => {
    t = await startTestServer({ backend });
    await ensureOrganisations(t.server.db);
    admin = await t.login(t.admin.userName, t.admin.password);
  });
  afterAll(() => t?.close());

  describe('§1 roles 3-7 need an organisation', () => {
    const body = (role: number, extra: Record<string, unknown> = {}) => ({
      userName: unique('org'),
      password: 'Mbandaka-river-2026',
      role,
      fullName: 'Needs Org',
      ...extra,
    });

    it('refuses to create a user of roles 3-7 without one, naming the field in the user language; roles 1 and 2 may have none', async () => {
      for (const role of [3, 4, 5, 6, 7]) {
        for (const path of ['/users/', '/users/createStaff']) {
          const refused = await t.api('POST', path, { token: admin, body: body(role) });
          expect([refused.status, refused.body.code, refused.body.errors?.[0]?.field], `${path} role ${role}`).toEqual([
            400,
            'users.organisationRequired',
            'location',
          ]);
          expect(refused.body.message).toBe(`An account of role ${role} must belong to an organisation: choose one`);
        }
      }
      const fr = await t.api('POST', '/users/', { token: admin, body: body(4, { location: 0 }), headers: { 'accept-language': 'fr' } });
      expect(fr.body.message).toBe('Un compte de rôle 4 doit appartenir à une organisation : choisissez-en une');
      expect((await t.server.db.query('SELECT 1 FROM "users" WHERE "fullName" = $1', ['Needs Org'])).length).toBe(0);
      expect((await t.api('POST', '/users/', { token: admin, body: body(2) })).status).toBe(201);
      expect((await t.api('POST', '/users/', { token: admin, body: body(1) })).status).toBe(201);
      expect((await t.api('POST', '/users/', { token: admin, body: body(3, { location: A }) })).status).toBe(201);
    });

    it('refuses an edit that leaves an active account of roles 3-7 without one, and lets an administrator fix or deactivate it', async () => {
      const created = await t.api('POST', '/users/', { token: admin, body: body(5, { location: A }) });
      const id = created.body.userId as string;
      for (const path of [`/users/${id}`, `/users/staff/${id}`]) {
        const refused = await t.api('PUT', path, { token: admin, body: { location: 0 } });
        expect([refused.status, refused.body.code], path).toEqual([400, 'users.organisationRequired']);
      }
      const role2 = await t.api('POST', '/users/', { token: admin, body: body(2) });
      expect((await t.api('PUT', `/users/${String(role2.body.userId)}`, { token: admin, body: { role: 4 } })).body.code).toBe(
        'users.organisationRequired',
      );
      // An account older than the rule: shown as such, fixed by choosing its organisation.
      const legacy = await t.createUserWithoutOrganisation({ userName: unique('legacy'), password: 'Kisangani-2026-x', role: 3 });
      expect((await t.api('PUT', `/users/${legacy.userId}`, { token: admin, body: { fullName: 'Still Without' } })).body.code).toBe(
        'users.organisationRequired',
      );
      expect((await t.api('PUT', `/users/${legacy.userId}`, { token: admin, body: { active: false } })).status).toBe(200);
      expect((await t.api('PUT', `/users/${legacy.userId}`, { token: admin, body: { active: true, location: A } })).status).toBe(200);
      expect(
        (await t.api('GET', `/users?location=0&role=3`, { token: admin })).body.rows.map((u: { userId: string }) => u.userId),
      ).not.toContain(legacy.userId);
    });
  });

  describe('§3 sign-out ends the session; the stream opens with a single-use ticket', () => {
    it("ends the signed-out session at once, on the API and its open stream, and leaves the user's other sessions alone", async () => {
      const userName = unique('out');
      await t.createUser({ userName, password: 'Lubumbashi-2026-x', role: 4, location: A });
      const [mine, other] = [await t.login(userName, 'Lubumbashi-2026-x'), await t.login(userName, 'Lubumbashi-2026-x')];
      const controller = new AbortController();
      const open = await fetch(await t.streamUrl(mine), { signal: controller.signal });
      expect(open.status).toBe(200);
      const out = await fetch(`${t.url}/api/logout`, { method: 'POST', headers: { authorization: `Bearer ${mine}` } });
      expect(out.status).toBe(204);
      const refused = await t.api('GET', '/lists', { token: mine });
      expect([refused.status, refused.body.code]).toEqual([401, 'auth.signedOut']);
      expect(refused.body.message).toBe('This session was signed out. Please sign in again.');
      expect((await t.api('POST', '/sync/ticket', { token: mine })).status).toBe(401);
      expect((await t.api('GET', '/lists', { token: other })).status).toBe(200);
      // The open stream of that session is closed by the server.
      const reader = (open.body as ReadableStream<Uint8Array>).getReader();
      for (;;) if ((await reader.read()).done) break;
      controller.abort();
    });

    it.runIf(backend === 'postgres')('ends the session in every server process', async () => {
      const second = await buildApp({ ...t.config, port: 0 });
      try {
        await second.app.listen({ port: 0, host: '127.0.0.1' });
        const address = second.app.server.address() as { port: number };
        const token = await t.login(t.admin.userName, t.admin.password);
        const other = (path: string) =>
          fetch(`http://127.0.0.1:${address.port}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
        expect((await other('/lists')).status).toBe(200); // read once there: the user row is kept
        expect((await fetch(`${t.url}/api/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).toBe(204);
        await expect.poll(async () => (await other('/lists')).status, { timeout: 5_000, interval: 50 }).toBe(401);
      } finally {
        await second.app.close();
      }
    });

    it('takes a ticket once, within its life, for its own session only; never a token in the URL', async () => {
      const token = await t.login(t.admin.userName, t.admin.password);
      const url = await t.streamUrl(token);
      expect(url).not.toContain(token);
      const first = new AbortController();
      expect((await fetch(url, { signal: first.signal })).status).toBe(200);
      first.abort();
      const again = await fetch(url, { headers: { 'accept-language': 'en' } });
      expect([again.status, (await again.json()).code]).toEqual([401, 'auth.badTicket']);
      const late = await t.streamUrl(token);
      await t.server.db.query(`UPDATE "stream_tickets" SET "expiresAt" = now() - interval '1 second'`);
      expect((await fetch(late)).status).toBe(401);
      const stored = await t.server.db.query<{ ticketHash: string }>('SELECT "ticketHash" FROM "stream_tickets"');
      expect(stored.every((row) => !url.includes(row.ticketHash))).toBe(true);
      expect((await fetch(`${t.url}/api/sync/stream?token=${token}`)).status).toBe(400);
    });
  });

  describe('§4 one throttle for every password check', () => {
    it('counts wrong passwords of the delete confirmation and of change password toward sign-in, and the other way round', async () => {
      const userName = unique('guess');
      await t.createUser({ userName, password: 'Kananga-2026-xyz', role: 3, location: A });
      const token = await t.login(userName, 'Kananga-2026-xyz');
      const provider = sampleBody(entityByName.serviceProvider, {});
      expect((await t.api('POST', '/sproviers/', { token, body: provider })).status).toBe(201);
      const del = () =>
        t.api('POST', `/sproviers/delete/${String(provider.sp_Id)}`, { token, body: { reason: 'guessing', password: 'wrong-guess' } });
      const change = () =>
        t.api('POST', '/users/changepass', { token, body: { oldPassword: 'wrong-guess', newPassword: 'Another-strong-2026' } });
      expect((await del()).status).toBe(400);
      expect((await del()).status).toBe(400);
      expect((await change()).status).toBe(400);
      expect((await t.api('POST', '/login', { body: { userName, password: 'wrong' } })).status).toBe(401);
      expect((await change()).status).toBe(400); // the fifth failure
      for (const refused of [await del(), await change()]) {
        expect(refused.status).toBe(429);
        expect(refused.body.code).toBe('auth.tooManyPasswords');
      }
      const signIn = await t.api('POST', '/login', { body: { userName, password: 'Kananga-2026-xyz' } });
      expect([signIn.status, signIn.body.code]).toEqual([429, 'auth.tooManyAttempts']);
      const right = await t.api('POST', `/sproviers/delete/${String(provider.sp_Id)}`, {
        token,
        body: { reason: 'guessing', password: 'Kananga-2026-xyz' },
      });
      expect(right.status).toBe(429); // even the right password, until the window ends
      expect((await t.api('GET', `/sproviers/${String(provider.sp_Id)}`, { token })).status).toBe(200);
    });
  });

  describe('§5 a temporary password opens nothing but its change', () => {
    it('answers 403 auth.mustChangePassword on every route but change password and sign-out, then works', async () => {
      const userName = unique('temp');
      await t.createUser({ userName, password: 'Temporary-2026-abc', role: 4, location: A, mustChangePassword: true });
      const token = await t.login(userName, 'Temporary-2026-abc');
      for (const [method, path] of [
        ['GET', '/lists'],
        ['GET', '/profile'],
        ['GET', '/session/device'],
        ['POST', '/sync/ticket'],
        ['GET', '/stats/gen'],
      ] as const) {
        const refused = await t.api(method, path, { token });
        expect([refused.status, refused.body.code], path).toEqual([403, 'auth.mustChangePassword']);
      }
      const fr = await t.api('GET', '/lists', { token, headers: { 'accept-language': 'fr' } });
      expect(fr.body.message).toBe('Vous devez choisir un nouveau mot de passe avant de continuer.');
      const changed = await t.api('POST', '/users/changepass', {
        token,
        body: { oldPassword: 'Temporary-2026-abc', newPassword: 'Chosen-by-me-2026' },
      });
      expect(changed.status).toBe(200);
      expect((await t.api('GET', '/lists', { token: changed.body.token })).status).toBe(200);
    });

    it('makes the generated first administrator password temporary, in a file only the server user reads, never printed', async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'icrs-first-admin-'));
      try {
        const server = await buildApp({
          ...configFromEnv({}),
          dataDir,
          adminUserName: 'chief',
          adminPassword: undefined,
          staticDir: null,
          logLevel: 'silent',
          jwtSecret: undefined,
        });
        try {
          const file = server.firstAdmin?.passwordFile as string;
          expect(path.dirname(file)).toBe(path.resolve(dataDir));
          expect(statSync(file).mode & 0o777).toBe(0o600);
          const password = /password: (\S+)/.exec(readFileSync(file, 'utf8'))?.[1] as string;
          expect(password).toHaveLength(16);
          const login = await server.app.inject({ method: 'POST', url: '/api/login', payload: { userName: 'chief', password } });
          expect(login.json().result.user.mustChangePassword).toBe(true);
          const token = login.json().result.user.token as string;
          const refused = await server.app.inject({ method: 'GET', url: '/api/lists', headers: { authorization: `Bearer ${token}` } });
          expect([refused.statusCode, refused.json().code]).toEqual([403, 'auth.mustChangePassword']);
        } finally {
          await server.app.close();
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
      expect(readFileSync(path.resolve('server/main.ts'), 'utf8')).not.toMatch(/generatedPassword|password "\$\{/);
    });
  });

  describe('§6 proxies, IPv6 and the hashing queue', () => {
    it('refuses TRUST_PROXY=true at start, and takes a hop count or addresses', () => {
      expect(() => configFromEnv({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY=true would believe any X-Forwarded-For/);
      expect(configFromEnv({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
      expect(configFromEnv({ TRUST_PROXY: '10.0.0.1,10.0.0.2' }).trustProxy).toBe('10.0.0.1,10.0.0.2');
      expect(configFromEnv({}).trustProxy).toBe(false);
      expect(() => configFromEnv({ TRUST_PROXY: '0' })).toThrow(/TRUST_PROXY must be a number of proxies/);
      expect(configFromEnv({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toBe('127.0.0.1');
      expect(configFromEnv({ TRUST_PROXY: ' 10.0.0.0/24, fd00::1 ' }).trustProxy).toBe('10.0.0.0/24,fd00::1');
      expect(() => configFromEnv({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY must be the proxies' addresses or ranges/);
      expect(() => configFromEnv({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/got "10.0.0.0\/33"/);
    });

    it('believes X-Forwarded-For only from the proxy: a forged one sent straight to the port is counted under the real address', async () => {
      // Over real TCP: the client's socket is bound to 127.0.0.2, another loopback address.
      const log: string[] = [];
      const proxied = await startTestServer({
        backend,
        config: { trustProxy: '127.0.0.1', logLevel: 'info' },
        logStream: { write: (line) => log.push(line) },
      });
      const { port } = new URL(proxied.url);
      const signIn = (from: string, forwarded: string, userName: string, password = 'wrong') =>
        new Promise<number>((resolve, reject) => {
          const body = JSON.stringify({ userName, password });
          const req = httpRequest(
            {
              host: '127.0.0.1',
              port: Number(port),
              localAddress: from,
              method: 'POST',
              path: '/api/login',
              agent: false,
              timeout: 20_000,
              headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-forwarded-for': forwarded },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode as number));
            },
          );
          req.on('timeout', () => req.destroy(new Error('no answer in 20 s')));
          req.on('error', reject);
          req.end(body);
        });
      try {
        // Not the proxy: each forged address is ignored, the tries all count against 127.0.0.2.
        for (let i = 0; i < 30; i++) expect(await signIn('127.0.0.2', `203.0.113.${i + 1}`, `forger${i % 10}`)).toBe(401);
        expect(await signIn('127.0.0.2', '203.0.113.99', proxied.admin.userName, proxied.admin.password)).toBe(429);
        const lines = log.filter((line) => line.includes('/api/login'));
        expect(lines.some((line) => line.includes('"remoteAddress":"127.0.0.2"'))).toBe(true);
        expect(lines.filter((line) => line.includes('203.0.113.'))).toEqual([]);
        // The proxy: its forwarded address is believed (locked out on its own, the next one not).
        for (let i = 0; i < 30; i++) expect(await signIn('127.0.0.1', '192.0.2.77', `proxied${i % 10}`)).toBe(401);
        expect(await signIn('127.0.0.1', '192.0.2.77', proxied.admin.userName, proxied.admin.password)).toBe(429);
        expect(await signIn('127.0.0.1', '192.0.2.78', proxied.admin.userName, proxied.admin.password)).toBe(200);
        expect(log.some((line) => line.includes('"remoteAddress":"192.0.2.77"'))).toBe(true);
      } finally {
        await proxied.close();
      }
    });

    it('believes a hop count only from a loopback peer, and warns at start when HOST listens on every address', async () => {
      const trust = trustProxyOption(1) as (address: string, hop: number) => boolean;
      expect([trust('127.0.0.1', 0), trust('::1', 0), trust('::ffff:127.0.0.1', 0)]).toEqual([true, true, true]);
      expect([trust('192.0.2.1', 0), trust('10.0.0.1', 0), trust('127.0.0.1', 1)]).toEqual([false, false, false]);
      const log: string[] = [];
      const open = await buildApp(
        { ...t.config, trustProxy: 1, host: '0.0.0.0', logLevel: 'info', port: 0 },
        { logStream: { write: (line) => log.push(line) } },
      );
      try {
        // A client on another machine, sent straight to the port, with a made-up address.
        const sent = { method: 'GET' as const, url: '/api/health', headers: { 'x-forwarded-for': '203.0.113.50' } };
        await open.app.inject({ ...sent, remoteAddress: '192.0.2.5' });
        await open.app.inject({ ...sent, remoteAddress: '127.0.0.1' }); // the proxy on this machine
      } finally {
        await open.app.close();
      }
      const addresses = log.filter((line) => line.includes('/api/health')).map((line) => /"remoteAddress":"([^"]+)"/.exec(line)?.[1]);
      expect(addresses).toContain('192.0.2.5');
      expect(addresses).toContain('203.0.113.50');
      expect(addresses.indexOf('192.0.2.5')).toBeLessThan(addresses.indexOf('203.0.113.50'));
      expect(log.join('')).toMatch(/TRUST_PROXY is set and HOST=0.0.0.0 listens on every address: bind HOST=127.0.0.1/);
    });

    it('counts the address the trusted proxy saw, not the one a client wrote first in X-Forwarded-For', async () => {
      const proxied = await startTestServer({ backend, config: { trustProxy: 1 } });
      try {
        const signIn = (forwarded: string, userName: string, password = 'wrong') =>
          fetch(`${proxied.url}/api/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': forwarded },
            body: JSON.stringify({ userName, password }),
          });
        // The client writes a new address first each time; the proxy appends the real one.
        for (let i = 0; i < 30; i++) expect((await signIn(`198.51.100.${i}, 203.0.113.9`, `nobody${i % 10}`)).status).toBe(401);
        expect((await signIn('198.51.100.200, 203.0.113.9', proxied.admin.userName, proxied.admin.password)).status).toBe(429);
        expect((await signIn('203.0.113.10', proxied.admin.userName, proxied.admin.password)).status).toBe(200);
        // IPv6: one /64 is one client.
        for (let i = 0; i < 30; i++) expect((await signIn(`2001:db8:7:7::${(i + 1).toString(16)}`, `v6nobody${i % 10}`)).status).toBe(401);
        expect((await signIn('2001:db8:7:7:abcd::1', proxied.admin.userName, proxied.admin.password)).status).toBe(429);
      } finally {
        await proxied.close();
      }
    });

    it('hashes in a bounded queue: beyond it, 503 with Retry-After, and the others are answered', async () => {
      const busy = await startTestServer({ backend, config: { passwordHashConcurrency: 1, passwordHashQueue: 2 } });
      try {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            fetch(`${busy.url}/api/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'accept-language': 'en', 'x-forwarded-for': `10.9.0.${i}` },
              body: JSON.stringify({ userName: `nobody${i}`, password: 'wrong' }),
            }).then(async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.json() })),
          ),
        );
        const refused = answers.filter((a) => a.status === 503);
        expect(refused.length).toBeGreaterThan(0);
        expect(answers.filter((a) => a.status === 401).length).toBeGreaterThanOrEqual(3);
        expect(refused[0]).toMatchObject({ retryAfter: '5', body: { code: 'auth.busy' } });
      } finally {
        await busy.close();
      }
    });

    it.runIf(backend === 'postgres')('holds the throttle across server processes on one database', async () => {
      const second = await buildApp({ ...t.config, port: 0 });
      try {
        const userName = unique('two');
        await t.createUser({ userName, password: 'Two-servers-2026', role: 4, location: A });
        const tryOn = async (which: 'first' | 'second', password: string) => {
          const payload = { userName, password };
          if (which === 'first') return (await t.api('POST', '/login', { body: payload })).status;
          return (await second.app.inject({ method: 'POST', url: '/api/login', payload })).statusCode;
        };
        for (let i = 0; i < 3; i++) expect(await tryOn('first', 'wrong')).toBe(401);
        for (let i = 0; i < 2; i++) expect(await tryOn('second', 'wrong')).toBe(401);
        expect(await tryOn('first', 'Two-servers-2026')).toBe(429);
        expect(await tryOn('second', 'Two-servers-2026')).toBe(429);
      } finally {
        await second.app.close();
      }
    });
  });

  describe('§8 smaller rules', () => {
    it('answers a deactivated account exactly as a wrong password, before checking the password', async () => {
      const userName = unique('off');
      const { userId } = await t.createUser({ userName, password: 'Deactivated-2026', role: 4, location: A });
      expect((await t.api('PUT', `/users/${userId}`, { token: admin, body: { active: false } })).status).toBe(200);
      const right = await t.api('POST', '/login', { body: { userName, password: 'Deactivated-2026' } });
      const wrong = await t.api('POST', '/login', { body: { userName, password: 'not-it' } });
      const nobody = await t.api('POST', '/login', { body: { userName: unique('ghost'), password: 'not-it' } });
      expect(right).toEqual(wrong);
      expect(right.body).toEqual({ ...nobody.body });
      expect(right.body).toMatchObject({ statusCode: 401, code: 'auth.badCredentials' });
    });

    it('refuses a JWT_SECRET shorter than 32 bytes at start', () => {
      expect(() => configFromEnv({ JWT_SECRET: 'short-secret' })).toThrow(/JWT_SECRET must be at least 32 bytes long \(it is 12\)/);
      expect(configFromEnv({ JWT_SECRET: 'x'.repeat(32) }).jwtSecret).toBe('x'.repeat(32));
      expect(configFromEnv({}).jwtSecret).toBeUndefined();
    });

    it('sends Strict-Transport-Security when the request came over HTTPS, as the trusted proxy says, and never over plain HTTP', async () => {
      const proxied = await startTestServer({ backend, config: { trustProxy: 1 } });
      try {
        const hsts = async (server: TestServer, headers: Record<string, string>) =>
          (await fetch(`${server.url}/api/health`, { headers })).headers.get('strict-transport-security');
        expect(await hsts(proxied, { 'x-forwarded-proto': 'https' })).toBe('max-age=31536000');
        expect(await hsts(proxied, {})).toBeNull();
        expect(await hsts(t, { 'x-forwarded-proto': 'https' })).toBeNull(); // not behind a trusted proxy: a client's word
      } finally {
        await proxied.close();
      }
    });

    it('tells search engines to stay away: robots.txt and X-Robots-Tag', async () => {
      expect(readFileSync(path.resolve('public/robots.txt'), 'utf8')).toBe('User-agent: *\nDisallow: /\n');
      expect((await fetch(`${t.url}/api/health`)).headers.get('x-robots-tag')).toBe('noindex, nofollow');
    });

    it.runIf(backend === 'postgres')(
      'answers 503 with Retry-After when the database refuses connections (SQLSTATE 55000, maintenance)',
      async () => {
        const own = await startTestServer({ backend });
        const database = new URL(own.config.databaseUrl as string).pathname.slice(1);
        const { default: pg } = await import('pg');
        const adminDb = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await adminDb.connect();
        try {
          const token = await own.login(own.admin.userName, own.admin.password);
          await adminDb.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
          await adminDb.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
            database,
          ]);
          const answer = await own.api('GET', '/lists', { token });
          expect([answer.status, answer.body.code]).toEqual([503, 'http.databaseUnavailable']);
          expect((await fetch(`${own.url}/api/lists`, { headers: { authorization: `Bearer ${token}` } })).headers.get('retry-after')).toBe(
            '5',
          );
          await adminDb.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
        } finally {
          await adminDb.end();
          await own.close();
        }
      },
    );
  });

  describe('§7 no self-verification', () => {
    const verifier = async (prefix: string, role = 4) => {
      const userName = unique(prefix);
      await t.createUser({ userName, password: 'Verifier-2026-abc', role, location: A });
      return t.login(userName, 'Verifier-2026-abc');
    };
    const newService = async (token: string) => {
      const provider = sampleBody(entityByName.serviceProvider, {});
      expect((await t.api('POST', '/sproviers/', { token, body: provider })).status).toBe(201);
      const svc = sampleBody(entityByName.service, { serviceProvider: String(provider.sp_Id) });
      expect((await t.api('POST', '/spDetail/', { token, body: svc })).status).toBe(201);
      return { providerId: String(provider.sp_Id), serviceId: String(svc.sp_Detail_Id) };
    };
    const status = async (serviceId: string) =>
      (await t.server.db.query<{ status: number }>('SELECT "status" FROM "tbl_sp_detail" WHERE "sp_Detail_Id" = $1', [serviceId]))[0]
        ?.status;

    it('refuses to let anyone verify a service they created or last changed, role 1 included', async () => {
      const [maker, other] = [await verifier('maker'), await verifier('other')];
      const { serviceId } = await newService(maker);
      const own = await t.api('POST', '/sverify/', { token: maker, body: { sp_Detail_Id: serviceId, status: 1 } });
      expect([own.status, own.body.code]).toEqual([403, 'verify.ownService']);
      expect(own.body.message).toBe('You created or last changed this service: another verifier must verify it');
      expect(await status(serviceId)).toBe(0);
      // Another verifier edits it: now that one may not verify it, the maker still may not.
      expect((await t.api('PUT', `/spDetail/${serviceId}`, { token: other, body: { hours: 'Mon-Fri' } })).status).toBe(200);
      expect((await t.api('POST', '/sverify/', { token: other, body: { sp_Detail_Id: serviceId, status: 1 } })).body.code).toBe(
        'verify.ownService',
      );
      const adminEdits = await newService(admin);
      expect((await t.api('POST', '/sverify/', { token: admin, body: { sp_Detail_Id: adminEdits.serviceId, status: 1 } })).body.code).toBe(
        'verify.ownService',
      );
      const third = await verifier('third');
      const verified = await t.api('POST', '/sverify/', { token: third, body: { sp_Detail_Id: serviceId, status: 1 } });
      expect(verified.status).toBe(200);
      expect(await status(serviceId)).toBe(1);
      // Deciding is not changing: the verifier may decide again (reject).
      expect(
        (await t.api('POST', '/sverify/', { token: third, body: { sp_Detail_Id: serviceId, status: 2, comment: 'Closed' } })).status,
      ).toBe(200);
    });

    it("returns a verified service to pending when a non-verifier changes its provider's address, contact or location", async () => {
      const [maker, checker] = [await verifier('field', 6), await verifier('check')]; // role 6 edits services but does not verify them
      const { providerId, serviceId } = await newService(maker);
      expect((await t.api('POST', '/sverify/', { token: checker, body: { sp_Detail_Id: serviceId, status: 1 } })).status).toBe(200);
      expect(await status(serviceId)).toBe(1);
      // Not what a verification vouches for: stays verified.
      expect((await t.api('PUT', `/spDetail/${serviceId}`, { token: maker, body: { hours: 'Weekends' } })).status).toBe(200);
      expect(await status(serviceId)).toBe(1);
      expect((await t.api('PUT', `/sproviers/${providerId}`, { token: maker, body: { phone: '+243 81 999 0000' } })).status).toBe(200);
      expect(await status(serviceId)).toBe(0);
      // The editor may not verify it again; the checker may, and a verifier's own edit keeps it verified.
      expect((await t.api('POST', '/sverify/', { token: checker, body: { sp_Detail_Id: serviceId, status: 1 } })).status).toBe(200);
      expect((await t.api('PUT', `/sproviers/${providerId}`, { token: checker, body: { sp_Address: 'Avenue du Lac 12' } })).status).toBe(
        200,
      );
      expect(await status(serviceId)).toBe(1);
      expect((await t.api('PUT', `/spDetail/${serviceId}`, { token: maker, body: { territory: 3 } })).status).toBe(200);
      expect(await status(serviceId)).toBe(0);
    });
  });
});
