// A process that stops without errors (lib/drain.ts, server/serve.ts) and a health check that
// says what is true (plugins/health.ts): on SIGTERM the readiness check answers 503 "draining"
// while every other request is served, with `Connection: close`; then the change streams end
// with a short `retry:`, and the process exits by itself. A second SIGTERM, or a stop longer than
// its limit, ends it at once. The
// readiness check asks the database on its own connection: a request pool that is full and
// waiting is not a database that does not answer.
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { serviceProvider } from '../../schemas/index';
import { configFromEnv, DEFAULT_SHUTDOWN_DRAIN_SECONDS } from '../../server/config';
import { DRAIN_STREAM_RETRY_MS } from '../../server/lib/drain';
import { backends, createScratchDatabase, type Backend, type ScratchDatabase } from '../helpers/db';
import { ADMIN, startTestServer } from '../helpers/server';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

const work = mkdtempSync(path.join(tmpdir(), 'icrs-drain-'));
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** One request on `agent` (kept-alive connections), within `timeoutMs`. */
function request(
  base: string,
  method: string,
  apiPath: string,
  { agent, token, body, timeoutMs = 5_000 }: { agent?: http.Agent; token?: string; body?: unknown; timeoutMs?: number } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(`${base}/api${apiPath}`, {
      method,
      agent,
      timeout: timeoutMs,
      headers: {
        ...(payload ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${apiPath}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }),
      );
      res.on('error', reject);
    });
    req.end(payload);
  });
}

async function startOn(backend: Backend, env: Record<string, string>): Promise<ServerProcess> {
  let server: ServerProcess;
  if (backend === 'postgres') {
    const scratch: ScratchDatabase = await createScratchDatabase();
    cleanups.push(() => scratch.drop());
    server = await startServerProcess(scratch.url, env);
  } else {
    server = await startServerProcess('', { DATA_DIR: mkdtempSync(path.join(work, 'data-')), ...env });
  }
  cleanups.push(() => server.stop());
  return server;
}

async function tokenOf(base: string): Promise<string> {
  const answer = await request(base, 'POST', '/login', { body: { userName: ADMIN.userName, password: ADMIN.password } });
  expect(answer.status).toBe(200);
  return String((answer.body.result as { user: { token: string } }).user.token);
}

/** An open change stream: its text so far, and a promise that resolves when it ends. */
async function openStream(base: string, token: string) {
  const ticket = await request(base, 'POST', '/sync/ticket', { token });
  expect(ticket.status).toBe(200);
  const stream = { text: '', ended: undefined as unknown as Promise<void> };
  stream.ended = new Promise<void>((resolve, reject) => {
    http
      .get(`${base}/api/sync/stream?ticket=${encodeURIComponent(String(ticket.body.ticket))}`, { agent: false }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (stream.text += chunk));
        res.on('end', resolve);
        res.on('error', reject);
      })
      .on('error', reject);
  });
  return stream;
}

describe('SHUTDOWN_DRAIN_SECONDS', () => {
  it('is read as seconds from 0 to 60, and anything else stops the start with a message', () => {
    expect(configFromEnv({}).shutdownDrainSeconds).toBe(DEFAULT_SHUTDOWN_DRAIN_SECONDS);
    expect(configFromEnv({ SHUTDOWN_DRAIN_SECONDS: '0' }).shutdownDrainSeconds).toBe(0);
    expect(configFromEnv({ SHUTDOWN_DRAIN_SECONDS: '1.5' }).shutdownDrainSeconds).toBe(1.5);
    for (const wrong of ['-1', '61', 'ten', '1,5', '2s'])
      expect(() => configFromEnv({ SHUTDOWN_DRAIN_SECONDS: wrong }), wrong).toThrow(/SHUTDOWN_DRAIN_SECONDS must be/);
  });
});

describe.each(backends)('a stopping server process drains first (%s)', (backend) => {
  it('on SIGTERM: readiness 503 "draining", liveness 200, other requests served with Connection: close; then streams end with a retry hint and it exits 0', async () => {
    const server = await startOn(backend, { SHUTDOWN_DRAIN_SECONDS: '2' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(async () => agent.destroy());
    expect(await request(server.url, 'GET', '/health/ready', { agent })).toMatchObject({
      status: 200,
      body: { status: 'ok', database: 'up', kind: backend },
    });
    expect(await request(server.url, 'GET', '/health/live', { agent })).toMatchObject({ status: 200, body: { status: 'ok' } });
    const before = await request(server.url, 'GET', '/health', { agent });
    expect(before).toMatchObject({ status: 200, body: { status: 'ok', database: 'up' } });
    expect(before.headers.connection).toBe('keep-alive');
    const token = await tokenOf(server.url);
    const stream = await openStream(server.url, token);

    const draining = server.logged(/"msg":"draining: readiness answers 503"/);
    const signalledAt = performance.now();
    server.process.kill('SIGTERM');
    await draining;
    for (const route of ['/health/ready', '/health']) {
      const answer = await request(server.url, 'GET', route, { agent });
      expect(answer, route).toMatchObject({ status: 503, body: { status: 'draining', kind: backend } });
      expect(answer.headers['retry-after']).toBeDefined();
    }
    expect(await request(server.url, 'GET', '/health/live', { agent })).toMatchObject({ status: 200 });
    // Served as usual, on a new connection or the kept one: each answer ends its connection.
    const list = await request(server.url, 'GET', '/sproviers?pageSize=5', { agent, token });
    expect(list.status).toBe(200);
    expect(list.headers.connection).toBe('close');
    expect(stream.text).toContain(': connected');

    await stream.ended; // at the end of the drain, not before
    const streamEndedAfter = performance.now() - signalledAt;
    expect(streamEndedAfter).toBeGreaterThanOrEqual(1_900);
    expect(stream.text).toMatch(new RegExp(`retry: ${DRAIN_STREAM_RETRY_MS}\\n\\n$`));
    expect(await server.exited).toBe(0);
    expect(performance.now() - signalledAt).toBeLessThan(8_000);
  }, 60_000);

  it('a second SIGTERM during the drain ends the process at once', async () => {
    const server = await startOn(backend, { SHUTDOWN_DRAIN_SECONDS: '30' });
    const draining = server.logged(/"msg":"draining: readiness answers 503"/);
    server.process.kill('SIGTERM');
    await draining;
    const secondAt = performance.now();
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(1);
    expect(performance.now() - secondAt).toBeLessThan(2_000);
    expect(server.log()).toMatch(/second signal: exiting now/);
  }, 120_000); // most of it starting the server process (PGlite migrates its new folder first: 20–50 s on a loaded machine)

  it('a stop longer than its limit ends the process: a request whose body never comes does not keep it alive', async () => {
    const server = await startOn(backend, { SHUTDOWN_DRAIN_SECONDS: '0.5' });
    // A client that sends the headers of an upload and then nothing: its connection is not idle,
    // so closing the server waits for it, until the stop's limit (server/serve.ts).
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    cleanups.push(async () => socket.destroy());
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write('POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"userName":');
    const signalledAt = performance.now();
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(1);
    const took = performance.now() - signalledAt;
    console.info(`${backend}: exited ${Math.round(took)} ms after SIGTERM`);
    expect(took).toBeGreaterThanOrEqual(500);
    expect(server.log()).toMatch(/the stop took longer than its limit: exiting now/);
  }, 120_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the readiness check with a busy request pool (PostgreSQL)', () => {
  it('answers 200 while every pooled connection waits and more requests queue for one, since the database answers', async () => {
    const scratch = await createScratchDatabase();
    cleanups.push(() => scratch.drop());
    // Requests wait for a pooled connection longer than this test holds the lock.
    const server = await startServerProcess(scratch.url, { DB_CONNECT_TIMEOUT_MS: '30000' });
    cleanups.push(() => server.stop());
    const token = await tokenOf(server.url);
    // The table the list reads is locked: each list request holds a pooled connection and waits;
    // beyond the pool's 10 connections, the others wait for one. The process is as busy as its
    // pool allows, and the database still answers.
    const locker = new pg.Client({ connectionString: scratch.url });
    await locker.connect();
    cleanups.push(() => locker.end());
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE "${serviceProvider.table}" IN ACCESS EXCLUSIVE MODE`);
    const lists = Array.from({ length: 40 }, () =>
      request(server.url, 'GET', '/sproviers?pageSize=5', { token, agent: new http.Agent({ keepAlive: false }), timeoutMs: 30_000 }).then(
        (answer) => answer.status,
        () => 0,
      ),
    );
    // The lists are in: the pool's 10 connections are open (each waiting on the lock, or for its
    // turn behind it), beside the change listener's and this test's two.
    // Counted from outside the lock's transaction: inside it, pg_stat_activity is one snapshot.
    const counter = new pg.Client({ connectionString: scratch.url });
    await counter.connect();
    cleanups.push(() => counter.end());
    const connections = async () =>
      Number(
        (await counter.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()')).rows[0]
          ?.n,
      );
    await expect.poll(connections, { timeout: 10_000, interval: 100 }).toBeGreaterThanOrEqual(10 + 3);
    for (let i = 0; i < 5; i += 1) {
      const started = performance.now();
      const ready = await request(server.url, 'GET', '/health/ready');
      expect(ready, `check ${i}`).toMatchObject({ status: 200, body: { status: 'ok', database: 'up' } });
      expect(performance.now() - started).toBeLessThan(1_500);
    }
    // All ten pooled connections, the listener's, the check's own and this test's two.
    expect(await connections()).toBe(10 + 4);
    await locker.query('ROLLBACK');
    // Then the waiting requests are answered too (none was turned away meanwhile).
    expect(await Promise.all(lists)).toEqual(lists.map(() => 200));
  }, 60_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the readiness check with a CPU-bound process (PostgreSQL)', () => {
  it('answers 200 while the event loop computes 20 ms at a time and requests wait for the pool, since the database answers', async () => {
    const t = await startTestServer({ backend: 'postgres', config: { connectTimeoutMs: 60_000 } });
    cleanups.push(() => t.close());
    const token = await t.login(ADMIN.userName, ADMIN.password);
    // Every pooled connection waits on a locked table, more requests wait for one, and this
    // process (the server's) computes 20 ms at a time, reading its sockets between two: a check
    // asked through the request pool would wait behind them all (the 503 "the database did not
    // answer" of a loaded machine); on its own connection it answers.
    const locker = new pg.Client({ connectionString: t.config.databaseUrl });
    await locker.connect();
    cleanups.push(() => locker.end());
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE "${serviceProvider.table}" IN ACCESS EXCLUSIVE MODE`);
    const busy = setInterval(() => {
      const end = performance.now() + 20;
      while (performance.now() < end);
    }, 1);
    try {
      const lists = Array.from({ length: 30 }, () =>
        request(t.url, 'GET', '/sproviers?pageSize=5', { token, agent: new http.Agent({ keepAlive: false }), timeoutMs: 60_000 }).then(
          (answer) => answer.status,
          () => 0,
        ),
      );
      const checks = [];
      for (let i = 0; i < 10; i += 1) checks.push(await request(t.url, 'GET', '/health/ready'));
      expect(checks.map((check) => [check.status, check.body])).toEqual(
        checks.map(() => [200, { status: 'ok', database: 'up', kind: 'postgres' }]),
      );
      await locker.query('ROLLBACK');
      expect(await Promise.all(lists)).toEqual(lists.map(() => 200));
    } finally {
      clearInterval(busy);
    }
  }, 120_000);
});
