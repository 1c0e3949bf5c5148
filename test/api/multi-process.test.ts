// Several server processes as one system, and upgrades (ADR-0004, ADR-0014), on a real
// PostgreSQL only: two processes (`server/main.ts`, as `npm start` runs it) share one database
// behind Debian's HAProxy on the README's deploy/haproxy.cfg (test/helpers/haproxy.ts), as an
// installation with more than one process runs them; the test steers HAProxy through its runtime
// API, as an operator's scripts do (a process out of rotation, its successor's new address). What
// one process does, the other knows at once: a signed-out session, the sign-in throttle's count,
// a change for the change stream. Then a rolling restart to "the next
// release" (test/helpers/next-release-server.ts: one more migration) while clients keep writing,
// uploading and reading through the balancer: a client that retries loses nothing, and nothing is
// stored twice.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { serviceProvider } from '../../schemas/index';
import { LOGIN_LIMITS } from '../../server/lib/throttle';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/db';
import { HAPROXY, startHaproxy, type Haproxy, type ServerName } from '../helpers/haproxy';
import { ADMIN } from '../helpers/server';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

const PROVIDERS = serviceProvider.table;
const PROVIDER_KEY = serviceProvider.keyFields[0] as string;
const NEXT_RELEASE = 'test/helpers/next-release-server.ts';
/** The id of the next release's migration (test/helpers/next-release-server.ts). */
const NEXT_RELEASE_MIGRATION = '9001-next-release-provider-note';
/** Behind one proxy (HAProxy, `option forwardfor`): the throttle counts the address it saw the client at. */
const SERVER_ENV = { TRUST_PROXY: '1' };
/** The longest one client request may take, retries included, before its loop gives up. */
const GIVE_UP_MS = 30_000;
/** A client's wait between two tries (what the app's sync engine does, shorter). */
const RETRY_PAUSE_MS = 50;
/** The address a test's own slow upload claims (TEST-NET-2), to find it in the server's log. */
const SLOW_CLIENT = '198.51.100.7';

type Json = Record<string, unknown>;

interface Answer {
  status: number;
  body: Json & { code?: string; message?: string };
  /** When the answer's headers arrived (performance.now()). */
  at: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `promise`, or a failure naming `what` after `ms`: every wait of this file is bounded. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await fetch(`${base}/api${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      'accept-language': 'en',
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const at = performance.now();
  const text = await response.text();
  let body: Answer['body'] = {};
  try {
    body = JSON.parse(text) as Answer['body'];
  } catch {
    /* not JSON (an empty 204) */
  }
  return { status: response.status, body, at };
}

/** A change stream read as the app's EventSource reads it, with each event's arrival time. */
interface ChangeStream {
  readonly events: { table: string; at: number }[];
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  /** The first event of `table` at index `from` or later. */
  next(table: string, from: number): Promise<{ table: string; at: number }>;
  close(): void;
}

async function openChangeStream(base: string, token: string): Promise<ChangeStream> {
  const ticket = await call(base, 'POST', '/sync/ticket', { token });
  if (ticket.status !== 200) throw new Error(`no stream ticket: ${ticket.status} ${JSON.stringify(ticket.body)}`);
  const controller = new AbortController();
  const response = await fetch(`${base}/api/sync/stream?ticket=${encodeURIComponent(String(ticket.body.ticket))}`, {
    signal: controller.signal,
  });
  if (response.status !== 200 || !response.body) throw new Error(`the stream answered ${response.status}`);
  const events: { table: string; at: number }[] = [];
  const waiters = new Set<() => void>();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const ended = (async () => {
    let buffer = '';
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        buffer += chunk.value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const data = /^event: change\ndata: (.+)$/m.exec(buffer.slice(0, end))?.[1];
          buffer = buffer.slice(end + 2);
          if (data) events.push({ table: (JSON.parse(data) as { table: string }).table, at: performance.now() });
        }
        waiters.forEach((wake) => wake());
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    events,
    ended,
    next: (table, from) =>
      new Promise((resolve) => {
        const look = () => {
          const found = events.slice(from).find((event) => event.table === table);
          if (!found) return;
          waiters.delete(look);
          resolve(found);
        };
        waiters.add(look);
        look();
      }),
    close: () => controller.abort(),
  };
}

/** A batch upload sent straight to `base` whose body comes in two halves: the first now, the rest
 * when `rest` resolves, so that the request is in flight (headers read, body awaited) meanwhile. */
function slowUpload(base: string, token: string, records: unknown[], rest: Promise<unknown>): Promise<{ status: number; body: Json }> {
  const payload = Buffer.from(JSON.stringify({ records }));
  const half = Math.floor(payload.length / 2);
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(`/api/sync/push/${PROVIDERS}`, base), {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': payload.length,
        authorization: `Bearer ${token}`,
        'accept-language': 'en',
        'x-forwarded-for': SLOW_CLIENT,
      },
    });
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text || '{}') as Json }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.write(payload.subarray(0, half));
    rest.then(() => request.end(payload.subarray(half)), reject);
  });
}

const newProvider = (label: string): Json => ({ ...sampleBody(serviceProvider), sp_Name: label });

if (process.env.TEST_DATABASE_URL && !existsSync(HAPROXY) && process.env.CI === 'true')
  throw new Error(`missing on this machine: ${HAPROXY} (.ci/run installs it)`);
/** On PostgreSQL only; without HAProxy (and not on CI), skipped. */
const SKIP = !process.env.TEST_DATABASE_URL || !existsSync(HAPROXY);

/** What HAProxy did with a server's connections that failed: tried again (on the other server:
 * `option redispatch`) or, after its retries, answered an error. */
const refusedBy = (row: Record<string, string>) => Number(row.wretr) + Number(row.wredis) + Number(row.econ);

describe.skipIf(SKIP)('two server processes on one database, behind HAProxy (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: pg.Client; // the scratch database, read by the test to count what was stored
  let work = '';
  let haproxy: Haproxy;
  /** HAProxy's frontend, in plain HTTP here (the README's TLS is deploy-restart.test.ts's). */
  const balancer = { url: '' };
  /** HAProxy's server (deploy/haproxy.cfg) for each process. */
  const SERVER: Record<'A' | 'B', ServerName> = { A: 'icrs1', B: 'icrs2' };
  /** HAProxy's server `name` sends to `process` now: the runtime API's `set server … addr`. */
  const pointAt = async (name: ServerName, process: ServerProcess) => {
    const { port } = new URL(process.url);
    expect(await haproxy.command(`set server icrs/${name} addr 127.0.0.1 port ${port}`)).toMatch(
      /IP changed|port changed|no need to change/,
    );
  };
  /** The processes now serving, by name: "the next release" replaces each in the last test. */
  const processes: Record<'A' | 'B', ServerProcess | undefined> = { A: undefined, B: undefined };
  const A = () => processes.A as ServerProcess;
  const B = () => processes.B as ServerProcess;
  let adminToken: string;

  const signIn = async (base: string, userName: string, password: string) => call(base, 'POST', '/login', { body: { userName, password } });
  const tokenOf = async (base: string, userName: string, password: string) => {
    const answer = await signIn(base, userName, password);
    if (answer.status !== 200) throw new Error(`sign-in of ${userName} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    return String((answer.body.result as { user: { token: string } }).user.token);
  };
  const createUser = async (userName: string, password: string) => {
    const created = await call(A().url, 'POST', '/users/', {
      token: adminToken,
      body: { userName, password, role: 1, location: 0, fullName: `Test ${userName}` },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  };
  const storedCount = async (keys: string[]) => {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${PROVIDERS}" WHERE "${PROVIDER_KEY}" = ANY($1::text[])`,
      [keys],
    );
    return rows[0]?.n ?? 0;
  };

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'icrs-multi-'));
    scratch = await createScratchDatabase();
    db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    // Both at once on an empty database: the migrations run once, under their advisory lock.
    const [a, b] = await Promise.all([startServerProcess(scratch.url, SERVER_ENV), startServerProcess(scratch.url, SERVER_ENV)]);
    Object.assign(processes, { A: a, B: b });
    haproxy = await startHaproxy({ work, backends: [new URL(a.url).host, new URL(b.url).host] });
    balancer.url = `http://127.0.0.1:${haproxy.frontPort}`;
    await haproxy.up(SERVER.A);
    await haproxy.up(SERVER.B);
    adminToken = await tokenOf(balancer.url, ADMIN.userName, ADMIN.password);
  }, 60_000);

  afterAll(async () => {
    await haproxy?.stop();
    await Promise.all([processes.A?.stop(), processes.B?.stop()]);
    await db?.end();
    await scratch?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('a session signed out through one process is refused by the other from the moment the sign-out answers, directly and through the balancer', async () => {
    // The session check reads the user row for every request on PostgreSQL (plugins/users/
    // sessionUsers.ts, docs/adr/0004-sessions-across-processes.md "A signed-out session is refused everywhere at once"):
    // a request sent to B after A answered the sign-out is refused, every time, however busy B
    // is with that session's other requests meanwhile. Each round signs out through one process
    // and checks the other (A then B, B then A).
    await createUser('leaving-user', 'leaving-password-1');
    const sessionCheck = (base: string, token: string) => call(base, 'GET', '/lists', { token });
    const rounds = 20;
    let requestsAfter = 0;
    for (let round = 1; round <= rounds; round += 1) {
      const [via, other] = round % 2 ? [A(), B()] : [B(), A()];
      const token = await tokenOf(via.url, 'leaving-user', 'leaving-password-1');
      expect((await sessionCheck(other.url, token)).status).toBe(200);
      for (let i = 0; i < 2; i += 1) expect((await sessionCheck(balancer.url, token)).status).toBe(200);
      // The same session keeps the other process busy while it signs out: 4 loops of requests,
      // each noting whether it was sent after the sign-out's answer.
      let answered = false;
      let stop = false;
      const late: Answer[] = [];
      const loops = Array.from({ length: 4 }, async () => {
        while (!stop) {
          const sentAfter = answered;
          const answer = await sessionCheck(other.url, token);
          if (sentAfter) late.push(answer);
          else if (answer.status !== 200) expect([answer.status, answer.body.code]).toEqual([401, 'auth.signedOut']);
        }
      });
      await pause(20);
      expect((await call(via.url, 'POST', '/logout', { token })).status).toBe(204);
      answered = true;
      const next = await sessionCheck(other.url, token);
      expect([next.status, next.body.code], `round ${round}: the other process, at once`).toEqual([401, 'auth.signedOut']);
      await pause(20);
      stop = true;
      await Promise.all(loops);
      expect(
        late.filter((answer) => answer.status !== 401 || answer.body.code !== 'auth.signedOut').map((answer) => answer.status),
        `round ${round}: requests sent to the other process after the sign-out's answer`,
      ).toEqual([]);
      requestsAfter += late.length + 1;
      // Twice: the round robin sends one to each process.
      for (let i = 0; i < 2; i += 1) {
        const through = await sessionCheck(balancer.url, token);
        expect([through.status, through.body.code], `round ${round}`).toEqual([401, 'auth.signedOut']);
      }
    }
    console.log(`${requestsAfter} requests sent to the other process after ${rounds} sign-outs' answers: all refused`);
  }, 180_000);

  it('the sign-in throttle counts the tries made on both processes', async () => {
    await createUser('guessed-user', 'guessed-password-1');
    const { maxFailures } = LOGIN_LIMITS.perUserName;
    for (let i = 0; i < maxFailures; i += 1) {
      const on = i % 2 ? B() : A();
      expect((await signIn(on.url, 'guessed-user', `wrong-password-${i}`)).status, `try ${i + 1}`).toBe(401);
    }
    // Refused on either process, the right password too; and so through the balancer.
    for (const on of [A(), B()]) {
      const refused = await signIn(on.url, 'guessed-user', 'guessed-password-1');
      expect([refused.status, refused.body.code]).toEqual([429, 'auth.tooManyAttempts']);
    }
    for (let i = 0; i < 2; i += 1) expect((await signIn(balancer.url, 'Guessed-User', 'guessed-password-1')).status).toBe(429);
  });

  it('a change made through one process reaches a change stream open on the other within a second', async () => {
    const onB = await openChangeStream(B().url, adminToken);
    const throughBalancer = await openChangeStream(balancer.url, adminToken);
    const delays: number[] = [];
    const balancedDelays: number[] = [];
    try {
      for (let i = 1; i <= 5; i += 1) {
        const [fromB, fromBalancer] = [onB.events.length, throughBalancer.events.length];
        const created = await call(A().url, 'POST', '/sproviers/', { token: adminToken, body: newProvider(`Change ${i}`) });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        // An event may even come before the answer: the delay is then 0.
        const heard = await within(5_000, `event ${i} on B`, onB.next(PROVIDERS, fromB));
        delays.push(Math.max(0, heard.at - created.at));
        const relayed = await within(5_000, `event ${i} through the balancer`, throughBalancer.next(PROVIDERS, fromBalancer));
        balancedDelays.push(Math.max(0, relayed.at - created.at));
      }
    } finally {
      onB.close();
      throughBalancer.close();
    }
    const shown = (ms: number[]) => ms.map((d) => d.toFixed(0)).join(', ');
    console.log(
      `change stream: write on A -> event on B: ${shown(delays)} ms (worst ${Math.max(...delays).toFixed(0)} ms); ` +
        `through the balancer: ${shown(balancedDelays)} ms (worst ${Math.max(...balancedDelays).toFixed(0)} ms)`,
    );
    expect(Math.max(...delays)).toBeLessThan(1000);
    expect(Math.max(...balancedDelays)).toBeLessThan(1000);
  });

  it('a rolling restart to the next release (with a migration) loses no request a client retries, and no upload', async () => {
    let stopping = false;
    const tally = { successes: 0, retries: 0, answers: new Map<number, number>(), failures: [] as string[], gaveUp: [] as string[] };
    const progressWaiters = new Set<() => void>();
    const progressed = () => progressWaiters.forEach((wake) => wake());
    /** Resolves once the clients have had `count` more successes: traffic went through meanwhile. */
    const progress = (count: number) =>
      within(
        30_000,
        `${count} more successes`,
        new Promise<void>((resolve) => {
          const target = tally.successes + count;
          const wake = () => {
            if (tally.successes < target) return;
            progressWaiters.delete(wake);
            resolve();
          };
          progressWaiters.add(wake);
        }),
      );
    const succeeded = () => {
      tally.successes += 1;
      progressed();
    };

    /** One client call through the balancer, tried again after a network error, 502 or 503 (the
     * app's rule), until an answer or GIVE_UP_MS; `retried` says whether an earlier try may
     * have been stored. */
    const withRetry = async (what: string, send: () => Promise<Answer>): Promise<{ answer: Answer; retried: boolean }> => {
      const deadline = Date.now() + GIVE_UP_MS;
      for (let tries = 1; ; tries += 1) {
        let status = 0;
        try {
          const answer = await send();
          tally.answers.set(answer.status, (tally.answers.get(answer.status) ?? 0) + 1);
          if (answer.status !== 502 && answer.status !== 503) return { answer, retried: tries > 1 };
          status = answer.status;
        } catch {
          // refused, reset or cut in the middle of the answer: the client cannot know
          tally.answers.set(0, (tally.answers.get(0) ?? 0) + 1);
        }
        if (Date.now() > deadline) throw new Error(`${what}: gave up after ${tries} tries (last ${status || 'network error'})`);
        tally.retries += 1;
        await pause(RETRY_PAUSE_MS);
      }
    };
    const duplicate = (status: number, body: { code?: unknown }) => status === 409 && body.code === 'http.duplicate';

    const writtenKeys: string[] = [];
    const uploadedKeys: string[] = [];
    const writer = async (w: number) => {
      for (let n = 1; !stopping; n += 1) {
        const body = newProvider(`Rolling writer ${w} #${n}`);
        const { answer, retried } = await withRetry(`writer ${w} #${n}`, () =>
          call(balancer.url, 'POST', '/sproviers/', { token: adminToken, body }),
        );
        if (answer.status === 201 || (retried && duplicate(answer.status, answer.body))) {
          writtenKeys.push(String(body[PROVIDER_KEY]));
          succeeded();
        } else tally.failures.push(`writer ${w} #${n}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    };
    const uploader = async () => {
      for (let n = 1; !stopping; n += 1) {
        const records = Array.from({ length: 10 }, (_, i) => ({ op: 'create', data: newProvider(`Rolling batch ${n}.${i}`) }));
        const { answer, retried } = await withRetry(`batch ${n}`, () =>
          call(balancer.url, 'POST', `/sync/push/${PROVIDERS}`, { token: adminToken, body: { records } }),
        );
        const results = (answer.body.results ?? []) as { key: string; status: number; body: { code?: unknown } }[];
        const stored =
          answer.status === 200 &&
          results.length === records.length &&
          results.every((r) => r.status === 201 || (retried && duplicate(r.status, r.body)));
        if (stored) {
          uploadedKeys.push(...records.map((r) => String(r.data[PROVIDER_KEY])));
          succeeded();
        } else tally.failures.push(`batch ${n}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`);
      }
    };
    const reader = async (r: number) => {
      for (let n = 1; !stopping; n += 1) {
        const { answer } = await withRetry(`reader ${r} #${n}`, () =>
          call(balancer.url, 'GET', '/sproviers?pageSize=5', { token: adminToken }),
        );
        if (answer.status === 200 && Array.isArray(answer.body.rows)) succeeded();
        else tally.failures.push(`reader ${r} #${n}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    };
    const loops = [writer(1), writer(2), writer(3), uploader(), reader(1), reader(2)].map((loop, i) =>
      loop.catch((error: unknown) => {
        tally.gaveUp.push(`loop ${i}: ${error instanceof Error ? error.message : String(error)}`);
      }),
    );

    /**
     * Stops `old` with SIGTERM as an operator's rolling restart does, and checks what its clients
     * see: an upload in flight when the signal comes is answered and stored; an open change
     * stream ends (so the close does not wait for it); the process exits by itself, cleanly,
     * well within its 10 s limit (server/serve.ts).
     */
    const stopChecked = async (old: ServerProcess, name: string) => {
      const stream = await openChangeStream(old.url, adminToken);
      const records = Array.from({ length: 3 }, (_, i) => ({ op: 'create', data: newProvider(`In flight at ${name}'s stop ${i}`) }));
      let sendRest = () => undefined as void;
      const upload = slowUpload(old.url, adminToken, records, new Promise<void>((resolve) => (sendRest = resolve)));
      await old.logged(new RegExp(`${SLOW_CLIENT.replaceAll('.', '\\.')}.*"msg":"incoming request"`));

      const shuttingDown = old.logged(/"msg":"shutting down"/);
      const signalledAt = performance.now();
      old.process.kill('SIGTERM');
      await shuttingDown;
      await within(10_000, `${name}'s change stream to end`, stream.ended);
      // Closing now: a new request is turned away (503, or the connection refused).
      const late = await call(old.url, 'GET', '/health').then(
        (answer) => answer.status,
        () => 0,
      );
      expect([0, 503], `a request to ${name} while it closes`).toContain(late);

      sendRest();
      const answered = await within(10_000, `the upload in flight at ${name}'s stop`, upload);
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);
      expect((answered.body.results as { status: number }[]).map((r) => r.status)).toEqual([201, 201, 201]);
      // 0: the close ended by itself; its 10 s limit (server/serve.ts) would exit with 1.
      expect(await within(15_000, `${name} to exit`, old.exited), old.log()).toBe(0);
      const shutdownMs = performance.now() - signalledAt;
      expect(await storedCount(records.map((r) => String(r.data[PROVIDER_KEY])))).toBe(3);
      return shutdownMs;
    };

    await progress(30);

    // Round 1, A: taken out of rotation first (maintenance, as an operator's script does), then stopped.
    const oldA = A();
    expect(await haproxy.command(`set server icrs/${SERVER.A} state maint`)).toBe('');
    const stopA = await stopChecked(oldA, 'A');
    processes.A = await startServerProcess(scratch.url, SERVER_ENV, { entry: NEXT_RELEASE });
    // The next release migrated the schema; B, of the previous release, keeps working on it.
    const recorded = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM "schema_migrations" WHERE "id" = $1', [
      NEXT_RELEASE_MIGRATION,
    ]);
    expect(recorded.rows[0]?.n).toBe(1);
    const onOldB = newProvider('Written by the previous release on the new schema');
    expect((await call(B().url, 'POST', '/sproviers/', { token: adminToken, body: onOldB })).status).toBe(201);
    expect((await call(B().url, 'GET', `/sproviers/${String(onOldB[PROVIDER_KEY])}`, { token: adminToken })).status).toBe(200);
    await pointAt(SERVER.A, A());
    expect(await haproxy.command(`set server icrs/${SERVER.A} state ready`)).toBe('');
    await haproxy.up(SERVER.A);
    await progress(30);

    // Round 2, B: stopped without warning (no drain: SHUTDOWN_DRAIN_SECONDS 0), still in
    // rotation. HAProxy's connections to it are refused until its checks take it out (3 failed,
    // 2 s apart); deploy/haproxy.cfg tries each such request again on A (`retries`, `option
    // redispatch`), and a request cut on a kept connection reaches the client, which tries again.
    const oldB = B();
    const refusedBefore = refusedBy(await haproxy.server(SERVER.B));
    const stopB = await stopChecked(oldB, 'B');
    await expect
      .poll(async () => refusedBy(await haproxy.server(SERVER.B)), {
        timeout: 30_000,
        interval: 50,
        message: 'a connection refused by the stopped B',
      })
      .toBeGreaterThan(refusedBefore);
    const refusedByB = refusedBy(await haproxy.server(SERVER.B)) - refusedBefore;
    processes.B = await startServerProcess(scratch.url, SERVER_ENV, { entry: NEXT_RELEASE });
    await pointAt(SERVER.B, B());
    await haproxy.up(SERVER.B);
    // From here, what the next release's processes alone were sent.
    expect(await haproxy.command('clear counters all')).toBe('');
    await progress(30);

    stopping = true;
    await within(GIVE_UP_MS + 10_000, 'the client loops to end', Promise.all(loops));

    const answers = Object.fromEntries([...tally.answers].sort(([a], [b]) => a - b));
    console.log(
      `rolling restart: ${tally.successes} successes (${writtenKeys.length} single writes, ${uploadedKeys.length} batch records), ` +
        `${tally.retries} retries; answers by status (0 = network error) ${JSON.stringify(answers)}; ` +
        `connections refused by the stopped B (HAProxy's retries, redispatches, errors): ${refusedByB}; shutdown A ${stopA.toFixed(0)} ms, B ${stopB.toFixed(0)} ms`,
    );
    expect(tally.gaveUp).toEqual([]);
    expect(tally.failures).toEqual([]);
    expect(tally.answers.get(500) ?? 0).toBe(0);
    // Every record a client was told is stored is there, once (keys are the clients' own).
    expect(await storedCount(writtenKeys)).toBe(writtenKeys.length);
    expect(await storedCount(uploadedKeys)).toBe(uploadedKeys.length);
    const {
      rows: [made],
    } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${PROVIDERS}" WHERE "sp_Name" LIKE 'Rolling %'`);
    expect(made?.n).toBe(writtenKeys.length + uploadedKeys.length);
    // The migration ran once, though two processes of the next release started.
    const migrations = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM "schema_migrations" WHERE "id" = $1', [
      NEXT_RELEASE_MIGRATION,
    ]);
    expect(migrations.rows[0]?.n).toBe(1);
    // Both processes of the next release serve, directly and through HAProxy, in rotation at
    // their new addresses.
    for (const name of ['A', 'B'] as const) {
      const next = processes[name] as ServerProcess;
      expect((await call(next.url, 'GET', '/health')).status).toBe(200);
      expect((await call(next.url, 'GET', '/sproviers?pageSize=5', { token: adminToken })).status).toBe(200);
      const row = await haproxy.server(SERVER[name]);
      expect({ status: row.status, addr: row.addr, refused: refusedBy(row) }, haproxy.log()).toEqual({
        status: 'UP',
        addr: new URL(next.url).host,
        refused: 0,
      });
      expect(Number(row.stot)).toBeGreaterThan(0);
    }
  }, 120_000);
});
