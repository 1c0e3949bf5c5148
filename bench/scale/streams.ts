// The change stream's fan-out with many devices online (docs/performance.md "Change stream
// fan-out"): N open streams (as the app opens them: a ticket, then GET /api/sync/stream) of role-3
// users spread over 50 organisations, and a few readers of everything (role 1 without an
// organisation). Against a server on PostgreSQL, it measures:
// (a) one write in one organisation: which streams hear it (only that organisation's and the
//     readers of everything should), and the delivery latency from the write to each stream;
// (b) 20 writes per second across the organisations for BENCH_SUSTAIN_SECONDS: delivery p95,
//     and whether the server keeps up (every event delivered, the p95 of the last half no worse
//     than the first's);
// (c) a burst of 2,000 sign-ins' writes (the `lastSignInAt` update each sign-in makes, at 200 per
//     second, without the password checks): the queries the server ran meanwhile, counted by
//     PostgreSQL itself (pg_stat_database transactions, pg_stat_user_tables reads of "users":
//     pg_stat_statements needs shared_preload_libraries, which the local server lacks), and the
//     server's own count of stream session checks when it has one.
// Writes are SQL statements on the database (as another process's would be): the fan-out is what
// is measured, not the write path. A device's follow-up pull is counted ("would pull": events
// not marked `mirror: false`), not made.
//
// `measureStreamFanout` takes a running server; `runFanout` makes a database and a server process
// of its own (bench/stream-fanout.bench.ts, and `main` for bench/scale.bench.ts).
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { TokenService } from '../../server/lib/tokens';
import { startServerProcess } from '../../test/helpers/server-process';
import { median } from '../median';

export const ORGANISATIONS = 50;
/** Streams of role 1 without an organisation (the readers of everything). */
const READERS = 2;
const CLIENTS = 'tbl_profiles';
const SUSTAIN_RATE = 20;
const SUSTAIN_SECONDS = Number(process.env.BENCH_SUSTAIN_SECONDS ?? 20);
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 2000);
const SIGN_IN_RATE = 200;
/** The stream's heartbeat period (server/plugins/sync/index.ts), each a session check. */
const HEARTBEAT_MS = 25_000;
const SECRET = 'stream-fanout-bench-secret-of-32-bytes-or-more';
const SERVER = process.env.BENCH_SCALE_SERVER ?? 'postgres://postgres@127.0.0.1:5432';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const p95 = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] as number) : NaN;
};

export interface FanoutTarget {
  /** The server's address. */
  url: string;
  /** Its database, as a superuser or its owner (the bench writes and reads the statistics). */
  databaseUrl: string;
  /** The server's JWT_SECRET: the bench's users' sessions are signed with it (no password checks). */
  jwtSecret: string;
}

interface Device {
  userId: string;
  /** When its stream answered (performance.now()): its heartbeats follow every HEARTBEAT_MS. */
  openedAt: number;
  organisation: number; // 0: a reader of everything
  /** Arrival times (performance.now()) of the clients table's events, and whether each would pull. */
  heard: { at: number; pulls: boolean }[];
  close(): void;
}

const userKey = (kind: string, n: number) => `00000000-0000-7000-8000-${kind}${n.toString(16).padStart(8, '0')}`;
const clientKey = (organisation: number) => `00000000-0000-7000-8000-c0de${organisation.toString(16).padStart(8, '0')}`;

/** The bench's users (one per stream, role 3 in organisations 1…50 in turn, and the readers) and
 * one client per organisation. Idempotent. */
export async function prepareFanoutDatabase(db: pg.Pool, streams: number): Promise<void> {
  await db.query(
    `INSERT INTO "users" ("userId", "userName", "passwordHash", "role", "location", "fullName", "active", "createdAt", "updatedAt")
     SELECT '00000000-0000-7000-8000-' || 'fa00' || lpad(to_hex(n), 8, '0'), 'fanout-' || n, 'x', 3, 1 + n % ${ORGANISATIONS}, 'Field ' || n, true, now(), now()
     FROM generate_series(0, $1::int - 1) AS n ON CONFLICT DO NOTHING`,
    [Math.max(streams, SIGN_INS)],
  );
  await db.query(
    `INSERT INTO "users" ("userId", "userName", "passwordHash", "role", "location", "fullName", "active", "createdAt", "updatedAt")
     SELECT '00000000-0000-7000-8000-' || 'fa11' || lpad(to_hex(n), 8, '0'), 'fanout-reader-' || n, 'x', 1, 0, 'Reader ' || n, true, now(), now()
     FROM generate_series(0, ${READERS - 1}) AS n ON CONFLICT DO NOTHING`,
  );
  for (let organisation = 1; organisation <= ORGANISATIONS; organisation++) {
    await db.query(
      `INSERT INTO "${CLIENTS}" ("prof_Id", "prof_Reg_No", "firstName", "lastName", "sex", "consent", "location", "territory", "createdAt", "updatedAt")
       VALUES ($1, $2, 'Amani', 'Fanout', 'F', true, $3, 1, now(), now()) ON CONFLICT DO NOTHING`,
      [clientKey(organisation), `FAN${organisation.toString().padStart(7, '0')}`, organisation],
    );
  }
}

/** Opens one stream as the app does: a ticket asked with the session's token, then the stream. */
function openDevice(url: string, token: string, device: Omit<Device, 'heard' | 'close' | 'openedAt'>, agent: http.Agent): Promise<Device> {
  return new Promise((resolve, reject) => {
    const heard: Device['heard'] = [];
    const ticket = http.request(
      `${url}/api/sync/ticket`,
      { method: 'POST', agent, headers: { authorization: `Bearer ${token}` } },
      (answer) => {
        let body = '';
        answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
        answer.on('end', () => {
          if (answer.statusCode !== 200) return reject(new Error(`ticket: ${answer.statusCode} ${body}`));
          const { ticket: value } = JSON.parse(body) as { ticket: string };
          const stream = http.get(`${url}/api/sync/stream?ticket=${encodeURIComponent(value)}`, { agent }, (events) => {
            if (events.statusCode !== 200) return reject(new Error(`stream: ${events.statusCode}`));
            let buffer = '';
            events.on('data', (chunk: Buffer) => {
              const at = performance.now();
              buffer += chunk.toString();
              let end: number;
              while ((end = buffer.indexOf('\n\n')) >= 0) {
                const data = /^data: (.+)$/m.exec(buffer.slice(0, end));
                buffer = buffer.slice(end + 2);
                if (!data) continue;
                const change = JSON.parse(data[1] as string) as { table: string; mirror?: boolean };
                if (change.table === CLIENTS) heard.push({ at, pulls: change.mirror !== false });
              }
            });
            resolve({ ...device, openedAt: performance.now(), heard, close: () => stream.destroy() });
          });
          stream.on('error', () => undefined);
        });
      },
    );
    ticket.on('error', reject);
    ticket.end();
  });
}

async function openDevices(target: FanoutTarget, streams: number): Promise<Device[]> {
  const tokens = new TokenService(target.jwtSecret, 3600);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const wanted = [
    ...Array.from({ length: READERS }, (_, n) => ({ userId: userKey('fa11', n), organisation: 0, role: 1 })),
    ...Array.from({ length: streams - READERS }, (_, n) => ({
      userId: userKey('fa00', n),
      organisation: 1 + (n % ORGANISATIONS),
      role: 3,
    })),
  ];
  const devices: Device[] = [];
  for (let i = 0; i < wanted.length; i += 50) {
    const batch = wanted.slice(i, i + 50);
    devices.push(
      ...(await Promise.all(
        batch.map(async ({ userId, organisation, role }) => {
          const token = await tokens.sign({ sub: userId, role, ver: 0, sid: randomUUID() });
          return openDevice(target.url, token, { userId, organisation }, agent);
        }),
      )),
    );
  }
  await pause(500); // every stream subscribed
  return devices;
}

const touch = (db: pg.Pool, organisation: number) =>
  db.query(`UPDATE "${CLIENTS}" SET "firstName" = "firstName", "updatedAt" = now() WHERE "prof_Id" = $1`, [clientKey(organisation)]);

export interface FanoutFigures {
  streams: number;
  oneWrite: { expected: number; heard: number; wrongStreams: number; wouldPull: number; p50: number; p95: number };
  sustained: {
    writesPerSecond: number;
    expected: number;
    delivered: number;
    p50: number;
    p95: number;
    p95FirstHalf: number;
    p95LastHalf: number;
  };
  signIns: {
    signIns: number;
    transactions: number;
    userReads: number;
    sessionChecks: number | undefined;
    quietSessionChecks: number | undefined;
    quietUserReads: number;
    seconds: number;
  };
}

/** (a) One write in one organisation, five times (organisations 7, 18, 29, 40, 50). */
async function oneWrite(db: pg.Pool, devices: Device[]): Promise<FanoutFigures['oneWrite']> {
  const latencies: number[] = [];
  let expected = 0;
  let heard = 0;
  let wrong = 0;
  let wouldPull = 0;
  for (const organisation of [7, 18, 29, 40, 50]) {
    const marks = devices.map((d) => d.heard.length);
    const started = performance.now();
    await touch(db, organisation);
    await pause(2_000);
    devices.forEach((device, i) => {
      const concerned = device.organisation === 0 || device.organisation === organisation;
      const events = device.heard.slice(marks[i]);
      if (concerned) expected += 1;
      if (!events.length) return;
      if (concerned) heard += 1;
      else wrong += 1;
      if (events.some((e) => e.pulls)) wouldPull += 1;
      latencies.push((events[0] as { at: number }).at - started);
    });
  }
  return { expected, heard, wrongStreams: wrong, wouldPull, p50: median(latencies), p95: p95(latencies) };
}

/** (b) SUSTAIN_RATE writes per second, each in the next organisation of a shuffled round. */
async function sustained(databaseUrl: string, devices: Device[]): Promise<FanoutFigures['sustained']> {
  const writers = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const writes: { organisation: number; at: number }[] = [];
  const total = SUSTAIN_RATE * SUSTAIN_SECONDS;
  const marks = devices.map((d) => d.heard.length);
  const started = performance.now();
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / SUSTAIN_RATE;
    const wait = due - performance.now();
    if (wait > 0) await pause(wait);
    // 7 is prime to 50: a round touches every organisation once, each 2.5 s apart.
    const organisation = 1 + ((i * 7) % ORGANISATIONS);
    writes.push({ organisation, at: performance.now() });
    pending.push(touch(writers, organisation));
  }
  await Promise.all(pending);
  const seconds = (performance.now() - started) / 1000;
  await pause(2_000);
  await writers.end();
  const byOrganisation = new Map<number, number[]>();
  for (const w of writes) byOrganisation.set(w.organisation, [...(byOrganisation.get(w.organisation) ?? []), w.at]);
  const half = started + (seconds * 1000) / 2;
  const first: number[] = [];
  const last: number[] = [];
  let expected = 0;
  let delivered = 0;
  devices.forEach((device, i) => {
    if (device.organisation === 0) return;
    const times = byOrganisation.get(device.organisation) ?? [];
    expected += times.length;
    // Each event answers the latest write of its organisation before it (writes 2.5 s apart).
    const answered = new Set<number>();
    for (const { at } of device.heard.slice(marks[i])) {
      const write = times.filter((t) => t <= at).at(-1);
      if (write === undefined || answered.has(write)) continue;
      answered.add(write);
      (write < half ? first : last).push(at - write);
    }
    delivered += answered.size;
  });
  const all = [...first, ...last];
  return {
    writesPerSecond: total / seconds,
    expected,
    delivered,
    p50: median(all),
    p95: p95(all),
    p95FirstHalf: p95(first),
    p95LastHalf: p95(last),
  };
}

async function statistics(db: pg.Pool): Promise<{ transactions: number; userReads: number }> {
  const client = await db.connect();
  await client.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await client.query<{ transactions: string; userReads: string }>(
    `SELECT (SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()) AS transactions,
            (SELECT coalesce(idx_scan, 0) + coalesce(seq_scan, 0) FROM pg_stat_user_tables WHERE relname = 'users') AS "userReads"`,
  );
  client.release();
  return { transactions: Number(rows[0]?.transactions), userReads: Number(rows[0]?.userReads) };
}

async function sessionChecks(target: FanoutTarget): Promise<number | undefined> {
  const token = await new TokenService(target.jwtSecret, 600).sign({ sub: userKey('fa11', 0), role: 1, ver: 0, sid: randomUUID() });
  const answer = await fetch(`${target.url}/api/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const found = /^icrs_change_stream_session_checks_total (\d+)/m.exec(await answer.text());
  return found ? Number(found[1]) : undefined;
}

interface Counts {
  transactions: number;
  userReads: number;
  sessionChecks: number | undefined;
}

async function counts(target: FanoutTarget, db: pg.Pool): Promise<Counts> {
  return { ...(await statistics(db)), sessionChecks: await sessionChecks(target) };
}

const minus = (after: Counts, before: Counts): Counts => ({
  transactions: after.transactions - before.transactions,
  userReads: after.userReads - before.userReads,
  sessionChecks:
    after.sessionChecks === undefined || before.sessionChecks === undefined ? undefined : after.sessionChecks - before.sessionChecks,
});

/**
 * (c) SIGN_INS sign-ins' writes at SIGN_IN_RATE per second, each its own statement as a
 * sign-in's. The streams' heartbeats (each checks its session every 25 s) read too: each window
 * lasts one heartbeat period, so that every stream's heartbeat falls once in each, and the counts
 * of a quiet window just before are subtracted.
 */
async function signInBurst(target: FanoutTarget, db: pg.Pool, devices: Device[]): Promise<FanoutFigures['signIns']> {
  // PostgreSQL's counters reach pg_stat_* within about a second of a busy backend's transaction,
  // up to 10 s after an idle one's: each window ends with a quiet while.
  const settle = 11_000;
  const windowMs = Math.max(HEARTBEAT_MS, (SIGN_INS / SIGN_IN_RATE) * 1000 + settle);
  await pause(settle);
  const start = await counts(target, db);
  await pause(windowMs);
  const quietEnd = await counts(target, db);
  const from = performance.now();
  const started = performance.now();
  const pending: Promise<unknown>[] = [];
  for (let n = 0; n < SIGN_INS; n++) {
    const wait = started + (n * 1000) / SIGN_IN_RATE - performance.now();
    if (wait > 0) await pause(wait);
    pending.push(db.query(`UPDATE "users" SET "lastSignInAt" = now() WHERE "userId" = $1`, [userKey('fa00', n)]));
  }
  await Promise.all(pending);
  const seconds = (performance.now() - started) / 1000;
  await pause(Math.max(0, started + windowMs - performance.now()));
  const burst = minus(await counts(target, db), quietEnd);
  // The server's own count is exact: less the heartbeats that fell in the window (known from
  // when each stream opened), what is left is the checks the sign-ins caused.
  const to = performance.now();
  const heartbeats = devices.reduce(
    (sum, d) => sum + Math.floor((to - d.openedAt) / HEARTBEAT_MS) - Math.floor((from - d.openedAt) / HEARTBEAT_MS),
    0,
  );
  const quiet = minus(quietEnd, start);
  // Less the burst's own statements (one transaction and one read of "users" each).
  const net = minus(burst, quiet);
  return {
    signIns: SIGN_INS,
    transactions: net.transactions - SIGN_INS,
    userReads: net.userReads - SIGN_INS,
    sessionChecks: burst.sessionChecks === undefined ? undefined : burst.sessionChecks - heartbeats,
    quietSessionChecks: quiet.sessionChecks,
    quietUserReads: quiet.userReads,
    seconds,
  };
}

/** Opens `streams` streams on a running server and measures (a), (b) and (c). */
export async function measureStreamFanout(target: FanoutTarget, streams: number): Promise<FanoutFigures> {
  const db = new pg.Pool({ connectionString: target.databaseUrl, max: 8 });
  try {
    await prepareFanoutDatabase(db, streams);
    const devices = await openDevices(target, streams);
    try {
      return {
        streams,
        oneWrite: await oneWrite(db, devices),
        sustained: await sustained(target.databaseUrl, devices),
        signIns: await signInBurst(target, db, devices),
      };
    } finally {
      devices.forEach((d) => d.close());
    }
  } finally {
    await db.end();
  }
}

/** A fresh database `name` and a server process on it (`root`: the checkout whose server runs). */
async function startTarget(name: string, root: string): Promise<{ target: FanoutTarget; stop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: `${SERVER}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const databaseUrl = `${SERVER}/${name}`;
  const server = await startServerProcess(databaseUrl, { JWT_SECRET: SECRET, LOG_LEVEL: 'info' }, { entry: `${root}/server/main.ts` });
  return { target: { url: server.url, databaseUrl, jwtSecret: SECRET }, stop: () => server.stop() };
}

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(0)} ms` : 'n/a');

export function printFigures(label: string, f: FanoutFigures): void {
  const a = f.oneWrite;
  const b = f.sustained;
  const c = f.signIns;
  console.log(`\n${label}, ${f.streams} streams (${ORGANISATIONS} organisations, ${READERS} readers of everything):`);
  console.log(
    `  (a) one write in one organisation (5 writes): heard by ${a.heard}/${a.expected} concerned streams and ${a.wrongStreams} others; ${a.wouldPull} would pull; latency p50 ${ms(a.p50)}, p95 ${ms(a.p95)}`,
  );
  console.log(
    `  (b) ${b.writesPerSecond.toFixed(1)} writes/s for ${SUSTAIN_SECONDS} s: ${b.delivered}/${b.expected} deliveries to the organisations' streams; p50 ${ms(b.p50)}, p95 ${ms(b.p95)} (first half ${ms(b.p95FirstHalf)}, last half ${ms(b.p95LastHalf)})`,
  );
  console.log(
    `  (c) ${c.signIns} sign-ins' writes in ${c.seconds.toFixed(1)} s, beyond a quiet window as long (heartbeats: ${c.quietUserReads} reads of "users", ${c.quietSessionChecks ?? 'uncounted'} session checks): ${c.transactions} more transactions, ${c.userReads} more reads of "users" (${(c.userReads / f.streams).toFixed(2)} per open stream; ${Math.min(f.streams - READERS, c.signIns)} of the signing-in users have a stream open), ${c.sessionChecks ?? 'uncounted'} session checks beyond the streams' heartbeats (the server's own count, exact)`,
  );
  const key = `streams.${f.streams}`;
  console.log(
    `${key}.one_write_wrong_streams: ${a.wrongStreams}\n${key}.one_write_p50_ms: ${a.p50.toFixed(0)} ms\n${key}.sustained_p95_ms: ${b.p95.toFixed(0)} ms\n${key}.signin_user_reads: ${c.userReads}\n${key}.signin_transactions: ${c.transactions}\n${key}.signin_session_checks: ${c.sessionChecks ?? 'n/a'}`,
  );
}

/** Runs (a)-(c) for each stream count on a database and server of its own; with `baselineRoot`,
 * the same against that checkout's server (another database), then prints the ratios. */
export async function runFanout(counts: readonly number[], baselineRoot?: string): Promise<void> {
  const runs: { label: string; root: string; database: string }[] = [
    { label: 'this checkout', root: process.cwd(), database: 'icrs_bench_fanout' },
  ];
  if (baselineRoot) runs.push({ label: `baseline (${baselineRoot})`, root: baselineRoot, database: 'icrs_bench_fanout_base' });
  const results = new Map<string, FanoutFigures[]>();
  for (const run of runs) {
    const { target, stop } = await startTarget(run.database, run.root);
    try {
      for (const count of counts) {
        const figures = await measureStreamFanout(target, count);
        printFigures(run.label, figures);
        results.set(run.label, [...(results.get(run.label) ?? []), figures]);
      }
    } finally {
      await stop();
    }
  }
  const [now, base] = runs.map((run) => results.get(run.label) ?? []);
  if (!base?.length || !now) return;
  console.log('\nRatios (baseline ÷ this checkout):');
  now.forEach((f, i) => {
    const b = base[i] as FanoutFigures;
    const ratio = (x: number, y: number) => (y > 0 ? `${(x / y).toFixed(1)}×` : `${x} vs ${y}`);
    console.log(
      `  ${f.streams} streams: streams woken per write ${ratio(b.oneWrite.heard + b.oneWrite.wrongStreams, f.oneWrite.heard + f.oneWrite.wrongStreams)}, one-write p50 ${ratio(b.oneWrite.p50, f.oneWrite.p50)}, sustained p95 ${ratio(b.sustained.p95, f.sustained.p95)}, sign-in burst reads of "users" ${ratio(b.signIns.userReads, f.signIns.userReads)}, transactions ${ratio(b.signIns.transactions, f.signIns.transactions)}`,
    );
  });
}

/** For bench/scale.bench.ts: 500 and 2,000 streams (BENCH_STREAMS), against BENCH_BASELINE_DIR too when set. */
export async function main(): Promise<void> {
  const counts = (process.env.BENCH_STREAMS ?? '500,2000').split(',').map(Number);
  await runFanout(counts, process.env.BENCH_BASELINE_DIR);
}
