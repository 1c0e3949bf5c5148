// How the server lives through database faults (ADR-0014), on a real PostgreSQL:
// `TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/db-faults.bench.ts`.
// The server runs as its own process (`server/main.ts`, default time limits) on a scratch
// database, behind a TCP proxy. Prints, over BENCH_FAULTS (default 10) kills of all its
// connections with 48 requests in flight: the answers by status (0: none within 30 s), whether the process lived,
// the time from the kill until a request succeeds again and until the open stream gets '*'; then the time of
// a 503 while the database refuses connections, and of /api/health and of a request while it
// is frozen.
import pg from 'pg';
import { sampleBody } from '../schemas/derive/sample';
import { serviceProvider } from '../schemas/index';
import { createScratchDatabase } from '../test/helpers/db';
import { ADMIN } from '../test/helpers/server';
import { startServerProcess } from '../test/helpers/server-process';
import { StreamReader } from '../test/helpers/sse';
import { startTcpProxy } from '../test/helpers/tcp-proxy';
import { startResults } from './results';

const FAULTS = Number(process.env.BENCH_FAULTS ?? 10);
const PROVIDERS = serviceProvider.table;

const results = startResults('db-faults');
const scratch = await createScratchDatabase();
const target = new URL(scratch.url);
const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
const server = await startServerProcess(proxy.via(scratch.url));
const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
await admin.connect();

// Whatever happens, the scratch database goes and nothing is left running.
const cleanUp = async () => {
  await server.stop();
  await scratch.drop();
  process.exit(0);
};
process.on('uncaughtException', (error) => {
  console.error(error);
  void cleanUp();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanUp());

let token = '';
const call = async (method: string, path: string, body?: unknown) => {
  const started = performance.now();
  try {
    const response = await fetch(`${server.url}/api${path}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), authorization: `Bearer ${token}` },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, retryAfter: response.headers.get('retry-after'), text, ms: performance.now() - started };
  } catch {
    return { status: 0, retryAfter: null, text: 'no answer within 30 s, or the process is gone', ms: performance.now() - started };
  }
};
const appRequests = () => [
  call('GET', `/sync/${PROVIDERS}?limit=5`),
  call('GET', '/stats/gen'),
  call('POST', '/sproviers/', sampleBody(serviceProvider)),
  call('GET', '/health'),
];
/** Time until a pull succeeds again; NaN when the server is gone or not back within 30 s. */
const untilUp = async () => {
  const started = performance.now();
  while ((await call('GET', `/sync/${PROVIDERS}?limit=1`)).status !== 200) {
    if (!server.alive() || performance.now() - started > 30_000) return NaN;
    await new Promise((r) => setTimeout(r, 50));
  }
  return performance.now() - started;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const fmt = (ms: number) => `${Math.round(ms)} ms`;

token = JSON.parse((await call('POST', '/login', ADMIN)).text).result.user.token;
const stream = new StreamReader();
const ticket = JSON.parse((await call('POST', '/sync/ticket', {})).text) as { ticket: string };
await stream.open(`${server.url}/api/sync/stream?ticket=${encodeURIComponent(ticket.ticket)}`);

const statuses = new Map<number, number>();
let without503RetryAfter = 0;
const recovery: number[] = [];
const resumed: number[] = [];
for (let fault = 0; fault < FAULTS && server.alive(); fault++) {
  const before = stream.tables.length;
  const inFlight = Array.from({ length: 8 }, appRequests).flat();
  const killedAt = performance.now();
  await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
    target.pathname.slice(1),
  ]);
  const late = Array.from({ length: 4 }, appRequests).flat();
  for (const answer of await Promise.all([...inFlight, ...late])) {
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    if (answer.status === 503 && !answer.retryAfter) without503RetryAfter++;
  }
  if (!server.alive()) break;
  if (Number.isNaN(await untilUp())) break;
  recovery.push(performance.now() - killedAt);
  // The stream must say that changes were missed; 10 s without it counts as never.
  if (
    await stream.next('*', before, 10_000).then(
      () => true,
      () => false,
    )
  )
    resumed.push(performance.now() - killedAt);
}

console.log(`kills of every connection: ${recovery.length} of ${FAULTS} survived; process alive: ${server.alive()}`);
console.log(`answers by status: ${JSON.stringify(Object.fromEntries(statuses))}; 503 without Retry-After: ${without503RetryAfter}`);
console.log(`a request succeeds again after the kill: median ${fmt(median(recovery))}, max ${fmt(Math.max(...recovery))}`);
console.log(`db_faults.kills_survived: ${recovery.length}  (of ${FAULTS})`);
console.log(`db_faults.recovery_ms: ${Math.round(median(recovery))} ms  (max ${fmt(Math.max(...recovery))})`);
console.log(
  `the open stream got '*' after ${resumed.length} of ${recovery.length} kills survived (by the time a request succeeded: median ${fmt(median(resumed))})`,
);

if (server.alive()) {
  await proxy.refuse();
  const refused = await call('GET', `/sync/${PROVIDERS}?limit=1`);
  console.log(`database refusing connections: ${refused.status} (Retry-After ${refused.retryAfter}) in ${fmt(refused.ms)}`);
  await proxy.forward();
  console.log(`back after refusing: up again in ${fmt(await untilUp())}`);

  proxy.freeze();
  const [health, request] = await Promise.all([call('GET', '/health'), call('GET', `/sync/${PROVIDERS}?limit=1`)]);
  console.log(
    `database frozen: /api/health ${health.status} ${health.text} in ${fmt(health.ms)}; a pull ${request.status} in ${fmt(request.ms)}`,
  );
  await proxy.forward();
  console.log(`back after the freeze: up again in ${fmt(await untilUp())}`);
}

stream.close();
await admin.end();
await proxy.close();
results.write();
await cleanUp();
