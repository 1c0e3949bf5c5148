// A server that survives its database (ADR-0014), on a real PostgreSQL only.
// The server runs as a child process (`server/main.ts`, as `npm start` runs it), so that a crash
// shows as the child exiting instead of killing the test worker. It reaches PostgreSQL through a
// TCP proxy that can refuse or freeze; its connections are also killed with pg_terminate_backend
// (only those of its own scratch database: other tests share this PostgreSQL).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { serviceProvider } from '../../schemas/index';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/db';
import { ADMIN } from '../helpers/server';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { StreamReader } from '../helpers/sse';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

const PROVIDERS = serviceProvider.table;

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { message?: string; database?: string };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!process.env.TEST_DATABASE_URL)('a server that survives its database (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let admin: pg.Client; // on the maintenance database, never on the server's own
  let token: string;
  let stream: StreamReader;

  const call = async (
    method: string,
    path: string,
    options: { body?: unknown; lang?: string; signal?: AbortSignal } = {},
  ): Promise<Answer> => {
    const response = await fetch(`${server.url}/api${path}`, {
      method,
      headers: {
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'accept-language': options.lang ?? 'en',
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
    const text = await response.text();
    let body: Answer['body'] = {};
    try {
      body = JSON.parse(text) as Answer['body'];
    } catch {
      /* not JSON */
    }
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body };
  };
  const newProvider = () => call('POST', '/sproviers/', { body: sampleBody(serviceProvider) });
  /** What the app does all the time: read, pull and write. */
  const appRequests = () => [call('GET', `/sync/${PROVIDERS}?limit=5`), call('GET', '/stats/gen'), newProvider(), call('GET', '/health')];

  /** Polls until a pull succeeds again; returns how many tries it took. */
  const recovered = async () => {
    for (let tries = 1; tries <= 200; tries++) {
      if ((await call('GET', `/sync/${PROVIDERS}?limit=1`)).status === 200) return tries;
      await pause(100);
    }
    throw new Error(`the server did not recover:\n${server.log()}`);
  };

  const terminateServerConnections = async () => {
    const { rows } = await admin.query<{ n: number }>(
      'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [new URL(scratch.url).pathname.slice(1)],
    );
    return rows[0].n;
  };

  /** A failure while the database is away is a 503 that says when to come back, never a 500. */
  const expectUnavailableOrFine = (answers: Answer[]) => {
    for (const answer of answers) {
      expect([200, 201, 503], JSON.stringify(answer)).toContain(answer.status);
      if (answer.status === 503) expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
  };

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    const target = new URL(scratch.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    server = await startServerProcess(proxy.via(scratch.url), { DB_STATEMENT_TIMEOUT_MS: '2000', DB_CONNECT_TIMEOUT_MS: '1000' });
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const login = await call('POST', '/login', { body: ADMIN });
    token = (login.body as { result: { user: { token: string } } } & Answer['body']).result.user.token;
    stream = new StreamReader();
    const ticket = await call('POST', '/sync/ticket');
    await stream.open(`${server.url}/api/sync/stream?ticket=${encodeURIComponent((ticket.body as unknown as { ticket: string }).ticket)}`);
  }, 60_000);

  afterAll(async () => {
    stream?.close();
    await server?.stop();
    await admin?.end();
    await proxy?.close();
    await scratch?.drop();
  });

  it('lives through all its connections being killed during requests and a live stream, 5 times', async () => {
    const answers: Answer[] = [];
    for (let round = 1; round <= 5; round++) {
      const before = stream.tables.length;
      // Requests in flight while every connection of the server is killed.
      const inFlight = Array.from({ length: 8 }, appRequests).flat();
      expect(await terminateServerConnections()).toBeGreaterThan(0);
      const late = Array.from({ length: 4 }, appRequests).flat(); // on the broken pool
      answers.push(...(await Promise.all([...inFlight, ...late])));
      expect(server.alive(), server.log()).toBe(true);
      expectUnavailableOrFine(answers);

      await recovered();
      // The LISTEN connection was killed too: once it is back the stream says changes may have
      // been missed ('*', the app then pulls everything), and later changes arrive again.
      const resumed = await stream.next('*', before);
      expect((await newProvider()).status).toBe(201);
      await stream.next(PROVIDERS, resumed + 1);
    }
    expect(server.alive()).toBe(true);
  }, 90_000);

  it("answers 503 with Retry-After in the user's language while the database refuses connections, then recovers", async () => {
    const before = stream.tables.length;
    await proxy.refuse();
    try {
      const en = await call('GET', `/sync/${PROVIDERS}?limit=1`);
      expect(en.status).toBe(503);
      expect(Number(en.retryAfter)).toBeGreaterThan(0);
      expect(en.body.message).toMatch(/database cannot be reached/);
      const fr = await call('GET', '/stats/gen', { lang: 'fr' });
      expect(fr.status).toBe(503);
      expect(fr.body.message).toMatch(/base de données est momentanément injoignable/);
      const health = await call('GET', '/health');
      expect(health).toMatchObject({ status: 503, body: { database: 'down' } });
      expectUnavailableOrFine(await Promise.all(appRequests()));
      // Long enough for several LISTEN attempts to fail (0.5 s, then 1 s, then 2 s): it keeps trying.
      await pause(2500);
      expect(server.alive(), server.log()).toBe(true);
    } finally {
      await proxy.forward();
    }
    await recovered();
    expect(await call('GET', '/health')).toMatchObject({ status: 200, body: { status: 'ok', database: 'up' } });
    const resumed = await stream.next('*', before);
    expect((await newProvider()).status).toBe(201);
    await stream.next(PROVIDERS, resumed + 1);
  }, 60_000);

  it('answers health within 2 s, and a request with 503 instead of hanging, while the database is frozen', async () => {
    const before = stream.tables.length;
    proxy.freeze();
    try {
      const health = await call('GET', '/health', { signal: AbortSignal.timeout(2000) });
      expect(health).toMatchObject({ status: 503, body: { database: 'down' } });
      const answer = await call('GET', `/sync/${PROVIDERS}?limit=1`);
      expect(answer.status).toBe(503);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    } finally {
      await proxy.forward();
    }
    await recovered();
    expect(server.alive(), server.log()).toBe(true);
    // The frozen LISTEN connection was replaced too.
    const resumed = await stream.next('*', before);
    expect((await newProvider()).status).toBe(201);
    await stream.next(PROVIDERS, resumed + 1);
  }, 60_000);
});
