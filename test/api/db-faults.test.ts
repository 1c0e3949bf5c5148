// A server that survives its database (issue 10 §4), on a real PostgreSQL only.
// The server runs as a child process (`server/main.ts`, as `npm start` runs it), so that a crash
// shows as the child exiting instead of killing the test worker. It reaches PostgreSQL through a
// TCP proxy that can refuse or freeze; its connections are also killed with pg_terminate_backend
// (only those of its own scratch database: other tests share this PostgreSQL).
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { serviceProvider } from '../../schemas/index';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/db';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

const ADMIN = { userName: 'admin', password: 'admin-password-1' };
const PROVIDERS = serviceProvider.table;

interface Answer { status: number; retryAfter: string | null; body: { message?: string; database?: string } }

/** The server under test, as its own process. */
interface Child {
  url: string;
  process: ChildProcess;
  alive(): boolean;
  log(): string;
}

async function startServerProcess(databaseUrl: string): Promise<Child> {
  const lines: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_USERNAME: ADMIN.userName,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET: 'db-faults-test-secret',
      STATIC_DIR: '/nonexistent', // API only
      LOG_LEVEL: 'info', // the line that says it is ready, with its port
      // Short limits so that a frozen database is found out quickly.
      DB_STATEMENT_TIMEOUT_MS: '2000',
      DB_CONNECT_TIMEOUT_MS: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 200));
  };
  child.stderr?.on('data', keep);
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      keep(chunk);
      const ready = /"port":(\d+)[^\n]*ICRS is ready/.exec(chunk.toString());
      if (ready) resolve(Number(ready[1]));
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${lines.join('\n')}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    alive: () => child.exitCode === null && child.signalCode === null,
    log: () => lines.join('\n'),
  };
}

/** The change events of one open stream, read as the app's EventSource gets them. */
class StreamReader {
  readonly tables: string[] = [];
  private readonly controller = new AbortController();
  private wake = () => undefined as void;

  async open(url: string) {
    const response = await fetch(url, { signal: this.controller.signal });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    void (async () => {
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const event = /^event: change\ndata: (.+)$/m.exec(buffer.slice(0, end + 1).replace(/^retry:.*\n|^:.*\n/gm, ''));
            if (event) this.tables.push((JSON.parse(event[1]) as { table: string }).table);
            buffer = buffer.slice(end + 2);
            this.wake();
          }
        }
      } catch { /* closed by the test */ }
    })();
  }

  /** Waits for a change event naming `table` at index `from` or later; returns its index. */
  async next(table: string, from: number, timeoutMs = 20_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.tables.indexOf(table, from);
      if (index >= 0) return index;
      if (Date.now() > deadline) throw new Error(`no '${table}' event after #${from}; got ${JSON.stringify(this.tables.slice(from))}`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 200);
      });
    }
  }

  close() {
    this.controller.abort();
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!process.env.TEST_DATABASE_URL)('a server that survives its database (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let proxy: TcpProxy;
  let server: Child;
  let admin: pg.Client; // on the maintenance database, never on the server's own
  let token: string;
  let stream: StreamReader;

  const call = async (method: string, path: string, options: { body?: unknown; lang?: string; signal?: AbortSignal } = {}): Promise<Answer> => {
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
    try { body = JSON.parse(text) as Answer['body']; } catch { /* not JSON */ }
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
    server = await startServerProcess(proxy.via(scratch.url));
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const login = await call('POST', '/login', { body: ADMIN });
    token = (login.body as { result: { user: { token: string } } } & Answer['body']).result.user.token;
    stream = new StreamReader();
    await stream.open(`${server.url}/api/sync/stream?token=${encodeURIComponent(token)}`);
  }, 60_000);

  afterAll(async () => {
    stream?.close();
    if (server?.alive()) {
      const exited = new Promise((resolve) => server.process.once('exit', resolve));
      server.process.kill('SIGTERM');
      await exited;
    }
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

  it('answers 503 with Retry-After in the user\'s language while the database refuses connections, then recovers', async () => {
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
  }, 60_000);
});
