// GET /api/metrics (ADR-0038): Prometheus' text format, linted by `promtool check metrics` and
// scraped by a real Prometheus with the README's scrape job (deploy/prometheus.yml); served to
// role 1 and to the scrape token only; each series moves with what it counts; the request
// histogram counts from the arrival on the socket (docs/operations.md).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { job } from '../../schemas/index';
import { LOGIN_LIMITS } from '../../server/lib/throttle';
import { configFromEnv } from '../../server/config';
import { backends } from '../helpers/db';
import { findTool, promtool, readSamples, startPrometheus, valueOf, type Sample } from '../helpers/prometheus';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';
import { StreamReader } from '../helpers/sse';

const SCRAPE_TOKEN = 'scrape-token-for-the-metrics-test-0123456789';
const ORG = 2;

describe('METRICS_TOKEN and METRICS settings', () => {
  it('refuses a short scrape token and a METRICS that is not on or off, at start', () => {
    expect(() => configFromEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 24 characters/);
    expect(() => configFromEnv({ METRICS: 'maybe' })).toThrow(/METRICS must be on or off/);
    expect(configFromEnv({ METRICS: 'off' }).metrics).toBe(false);
    expect(configFromEnv({}).metrics).toBe(true);
  });
});

describe.each(backends)('metrics on %s', (backend) => {
  let t: TestServer;
  const tokens: Record<number, string> = {};

  beforeAll(async () => {
    t = await startTestServer({ backend, config: { metricsToken: SCRAPE_TOKEN } });
    await ensureOrganisations(t.server.db);
    tokens[1] = await t.login(t.admin.userName, t.admin.password);
    for (const role of [2, 3, 4, 5, 6, 7]) {
      const name = `metrics-r${role}`;
      await t.createUser({ userName: name, password: `password-${name}`, role, location: ORG });
      tokens[role] = await t.login(name, `password-${name}`);
    }
  }, 120_000);
  afterAll(() => t?.close());

  const scrapeText = async (authorization = `Bearer ${SCRAPE_TOKEN}`): Promise<string> => {
    const response = await fetch(`${t.url}/api/metrics`, { headers: { authorization } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };
  const scrape = async (authorization?: string): Promise<Sample[]> => readSamples(await scrapeText(authorization));

  it('passes `promtool check metrics` with nothing to say, after every kind of series has values', async () => {
    // Values in every family first: a stream opened, a pull, an upload batch, a sign-in refused.
    const stream = new StreamReader();
    await stream.open(await t.streamUrl(tokens[3] as string));
    expect((await t.api('GET', `/sync/${job.table}`, { token: tokens[3] })).status).toBe(200);
    const body = { records: [{ op: 'create', data: sampleBody(job) }] };
    expect((await t.api('POST', `/sync/push/${job.table}`, { token: tokens[3], body })).status).toBe(200);
    expect((await t.api('POST', '/login', { body: { userName: 'metrics-r7', password: 'wrong-password' } })).status).toBe(401);
    const text = await scrapeText();
    stream.close();
    const lint = promtool(['check', 'metrics'], text);
    expect(lint, 'promtool check metrics').toEqual({ status: 0, output: '' });
    expect(text).not.toMatch(/^icrs_nodejs_active_\w+_total/m);
  });

  it('answers role 1 and the scrape token in the text format; refuses anonymous users, every other role and a wrong token', async () => {
    const text = await scrapeText(`Bearer ${tokens[1]}`);
    for (const name of [
      'icrs_http_requests_total',
      'icrs_http_request_duration_seconds',
      'icrs_db_connections',
      'icrs_db_connection_waiting',
      'icrs_db_connection_wait_seconds',
      'icrs_upload_batches_total',
      'icrs_upload_records_total',
      'icrs_change_streams_open',
      'icrs_signin_failures_total',
      'icrs_password_throttled_total',
      'icrs_process_cpu_seconds_total',
      'icrs_upload_batches_in_progress',
      'icrs_upload_batch_records',
      'icrs_change_streams_opened_total',
      'icrs_changes_heard_total',
      'icrs_change_stream_events_total',
      'icrs_sync_pull_duration_seconds',
      'icrs_nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(text, name).toMatch(new RegExp(`^# HELP ${name} \\S`, 'm'));
    }
    expect(text).toMatch(/^# TYPE icrs_http_request_duration_seconds histogram$/m);
    await scrape();

    const refused = async (headers: Record<string, string>) => (await fetch(`${t.url}/api/metrics`, { headers })).status;
    expect(await refused({})).toBe(401);
    expect(await refused({ authorization: `Bearer ${SCRAPE_TOKEN}x` })).toBe(401);
    expect(await refused({ authorization: 'Bearer ' })).toBe(401);
    for (const role of [2, 3, 4, 5, 6, 7]) expect(await refused({ authorization: `Bearer ${tokens[role]}` }), `role ${role}`).toBe(403);
    // The refusal speaks the caller's language, as every API answer.
    const french = await t.api('GET', '/metrics', { token: tokens[3], headers: { 'accept-language': 'fr' } });
    expect([french.status, french.body.message]).toEqual([403, "Vous n'avez pas le droit de faire ceci"]);
  });

  it('counts requests by route pattern and status, with their latency, never by raw URL', async () => {
    const before = await scrape();
    const route = { method: 'GET', route: '/api/jobs/:id', status: '404' };
    for (let i = 0; i < 3; i += 1) expect((await t.api('GET', `/jobs/no-such-job-${i}`, { token: tokens[3] })).status).toBe(404);
    const after = await scrape();
    expect(valueOf(after, 'icrs_http_requests_total', route) - valueOf(before, 'icrs_http_requests_total', route)).toBe(3);
    expect(
      valueOf(after, 'icrs_http_request_duration_seconds_count', route) -
        valueOf(before, 'icrs_http_request_duration_seconds_count', route),
    ).toBe(3);
    expect(valueOf(after, 'icrs_http_request_duration_seconds_sum', route)).toBeGreaterThan(0);
    const routes = after.filter((s) => s.name === 'icrs_http_requests_total').map((s) => s.labels.route);
    expect(routes.some((r) => r?.includes('no-such-job'))).toBe(false);
  });

  it('counts upload batches, their stored and refused records', async () => {
    const before = await scrape();
    const good = [sampleBody(job), sampleBody(job)];
    const bad = { ...sampleBody(job), positions: 0 }; // below the minimum: refused alone
    const response = await t.api('POST', `/sync/push/${job.table}`, {
      token: tokens[3],
      body: { records: [...good, bad].map((data) => ({ op: 'create', data })) },
    });
    expect(response.body.results.map((r: { status: number }) => r.status)).toEqual([201, 201, 400]);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('icrs_upload_batches_total', { table: job.table })).toBe(1);
    expect(delta('icrs_upload_records_total', { table: job.table, outcome: 'stored' })).toBe(2);
    expect(delta('icrs_upload_records_total', { table: job.table, outcome: 'refused' })).toBe(1);
    // The batch's size (3 records) in its histogram, and nothing left in progress.
    expect(delta('icrs_upload_batch_records_count', { table: job.table })).toBe(1);
    expect(delta('icrs_upload_batch_records_sum', { table: job.table })).toBe(3);
    expect(delta('icrs_upload_batch_records_bucket', { table: job.table, le: '2' })).toBe(0);
    expect(delta('icrs_upload_batch_records_bucket', { table: job.table, le: '5' })).toBe(1);
    expect(valueOf(after, 'icrs_upload_batches_in_progress')).toBe(0);
  });

  it('times the pulls by table', async () => {
    const before = await scrape();
    for (let i = 0; i < 2; i += 1) expect((await t.api('GET', `/sync/${job.table}`, { token: tokens[3] })).status).toBe(200);
    const after = await scrape();
    const name = 'icrs_sync_pull_duration_seconds_count';
    expect(valueOf(after, name, { table: job.table }) - valueOf(before, name, { table: job.table })).toBe(2);
    expect(valueOf(after, 'icrs_sync_pull_duration_seconds_sum', { table: job.table })).toBeGreaterThan(0);
  });

  it('counts the open change streams', async () => {
    const before = valueOf(await scrape(), 'icrs_change_streams_open');
    const stream = new StreamReader();
    await stream.open(await t.streamUrl(tokens[3] as string));
    const opened = await scrape();
    expect(valueOf(opened, 'icrs_change_streams_open')).toBe(before + 1);
    // A write is heard once and sent to the open stream: the fan-out.
    const body = { records: [{ op: 'create', data: sampleBody(job) }] };
    expect((await t.api('POST', `/sync/push/${job.table}`, { token: tokens[3], body })).status).toBe(200);
    await stream.next(job.table, 0, 10_000);
    const told = await scrape();
    expect(valueOf(told, 'icrs_changes_heard_total')).toBeGreaterThan(valueOf(opened, 'icrs_changes_heard_total'));
    expect(valueOf(told, 'icrs_change_stream_events_total')).toBeGreaterThan(valueOf(opened, 'icrs_change_stream_events_total'));
    expect(valueOf(told, 'icrs_change_streams_opened_total')).toBeGreaterThanOrEqual(1);
    stream.close();
    await expect.poll(async () => valueOf(await scrape(), 'icrs_change_streams_open'), { timeout: 5_000 }).toBe(before);
  });

  it('counts failed sign-ins and throttled tries', async () => {
    const before = await scrape();
    const name = 'metrics-r4';
    for (let i = 0; i < LOGIN_LIMITS.perUserName.maxFailures; i += 1) {
      expect((await t.api('POST', '/login', { body: { userName: name, password: 'wrong-password' } })).status).toBe(401);
    }
    expect((await t.api('POST', '/login', { body: { userName: name, password: 'wrong-password' } })).status).toBe(429);
    const after = await scrape();
    expect(valueOf(after, 'icrs_signin_failures_total') - valueOf(before, 'icrs_signin_failures_total')).toBe(
      LOGIN_LIMITS.perUserName.maxFailures,
    );
    expect(valueOf(after, 'icrs_password_throttled_total') - valueOf(before, 'icrs_password_throttled_total')).toBe(1);
  });

  it('shows the database connections and the waits for one', async () => {
    await Promise.all(Array.from({ length: 20 }, () => t.api('GET', '/jobs', { token: tokens[3] })));
    const families = await scrape();
    const max = valueOf(families, 'icrs_db_connections', { state: 'max' });
    expect(max).toBeGreaterThanOrEqual(1);
    expect(valueOf(families, 'icrs_db_connections', { state: 'open' })).toBeLessThanOrEqual(max);
    expect(valueOf(families, 'icrs_db_connections', { state: 'idle' })).toBeLessThanOrEqual(
      valueOf(families, 'icrs_db_connections', { state: 'open' }),
    );
    expect(valueOf(families, 'icrs_db_connection_waiting')).toBeGreaterThanOrEqual(0);
    // PostgreSQL's pool: every request waited for its connection, however briefly.
    if (backend === 'postgres')
      expect(valueOf(families, 'icrs_db_connection_wait_seconds_count', { outcome: 'ok' })).toBeGreaterThanOrEqual(20);
  });
});

describe('METRICS=off', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ config: { metrics: false, metricsToken: SCRAPE_TOKEN } });
  }, 60_000);
  afterAll(() => t?.close());

  it('serves no metrics, to role 1 or the scrape token', async () => {
    const admin = await t.login(t.admin.userName, t.admin.password);
    expect((await t.api('GET', '/metrics', { token: admin })).status).toBe(404);
    expect((await fetch(`${t.url}/api/metrics`, { headers: { authorization: `Bearer ${SCRAPE_TOKEN}` } })).status).toBe(404);
  });
});

const DEPLOY = join(import.meta.dirname, '../../deploy');
/** A test that cannot find Prometheus' tools fails on CI, and is skipped on a machine without them. */
const noTools = !findTool('promtool') || !findTool('prometheus');
const skipTools = noTools && process.env.CI !== 'true';

describe('deploy/prometheus.yml and deploy/icrs-alerts.yml', () => {
  it('are what the README shows, word for word', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    const block = /<!-- deploy\/prometheus\.yml -->\s*```yaml\n([\s\S]*?)```/.exec(readme);
    expect(block?.[1], 'README: a yaml block after <!-- deploy/prometheus.yml -->').toBe(
      readFileSync(join(DEPLOY, 'prometheus.yml'), 'utf8'),
    );
    expect(readFileSync(join(import.meta.dirname, '../../docs/operations.md'), 'utf8')).toContain('deploy/icrs-alerts.yml');
  });

  it.skipIf(skipTools)('pass `promtool check rules` and `promtool check config`', () => {
    const rules = promtool(['check', 'rules', join(DEPLOY, 'icrs-alerts.yml')]);
    expect(rules.status, rules.output).toBe(0);
    expect(rules.output).toMatch(/SUCCESS: \d+ rules found/);
    const config = promtool(['check', 'config', join(DEPLOY, 'prometheus.yml')]);
    expect(config.status, config.output).toBe(0);
  });
});

describe.skipIf(skipTools)('a real Prometheus with the README scrape job', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ config: { metricsToken: SCRAPE_TOKEN } });
  }, 60_000);
  afterAll(() => t?.close());

  it('scrapes the server: the target is up, the alert rules load, and a query returns an icrs_ series', async () => {
    const prometheus = await startPrometheus(DEPLOY, new URL(t.url).host, SCRAPE_TOKEN);
    try {
      interface Answers {
        targets: { activeTargets: Array<{ health: string; lastError: string }> };
        query: { result: unknown[] };
        rules: { groups: Array<{ rules: Array<{ health: string }> }> };
      }
      const api = async <K extends keyof Answers>(kind: K, path: string = kind): Promise<Answers[K]> =>
        ((await (await fetch(`${prometheus.url}/api/v1/${path}`)).json()) as { data: Answers[K] }).data;
      await expect
        .poll(async () => (await api('targets')).activeTargets.map((target) => [target.health, target.lastError]), {
          timeout: 15_000,
          interval: 250,
        })
        .toEqual([['up', '']]);
      // A query returns the series scraped (the next scrape also counts the first one's request).
      const query = `query?query=${encodeURIComponent('icrs_http_requests_total{route="/api/metrics",status="200"}')}`;
      await expect.poll(async () => (await api('query', query)).result.length, { timeout: 10_000, interval: 250 }).toBeGreaterThan(0);
      // The alert rules load and evaluate without error.
      const rules = async () => (await api('rules')).groups.flatMap((group) => group.rules);
      expect((await rules()).length).toBe(9);
      await expect.poll(async () => (await rules()).every((rule) => rule.health === 'ok'), { timeout: 10_000 }).toBe(true);
    } finally {
      await prometheus.stop();
    }
  }, 60_000);
});

/** The median of a histogram's observations, read from its cumulative buckets as Prometheus'
 * histogram_quantile reads them (linear within a bucket). */
function histogramMedian(buckets: Array<{ le: number; count: number }>): number {
  const sorted = [...buckets].sort((a, b) => a.le - b.le);
  const total = sorted.at(-1)?.count ?? 0;
  let lower = 0;
  let below = 0;
  for (const { le, count } of sorted) {
    if (count >= total / 2 && count > below)
      return lower + ((le === Infinity ? lower : le) - lower) * ((total / 2 - below) / (count - below));
    lower = le;
    below = count;
  }
  return NaN;
}

describe('the request histogram with a busy event loop', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ config: { metricsToken: SCRAPE_TOKEN } });
  }, 60_000);
  afterAll(() => t?.close());

  it("agrees with the load tool's median within 20 %", async () => {
    const route = { method: 'GET', route: '/api/config', status: '200' };
    const buckets = async () =>
      readSamples(await (await fetch(`${t.url}/api/metrics`, { headers: { authorization: `Bearer ${SCRAPE_TOKEN}` } })).text())
        .filter((s) => s.name === 'icrs_http_request_duration_seconds_bucket' && Object.entries(route).every(([k, v]) => s.labels[k] === v))
        .map((s) => ({ le: Number(s.labels.le === '+Inf' ? Infinity : s.labels.le), count: s.value }));
    const before = await buckets();
    // The CPU-bound load: this process (the server's) computes 20 ms at a time, and reads its
    // sockets between two: each request waits in the kernel for the computation to end. Fastify's
    // own clock (from its handler) says under 1 ms.
    const busy = setInterval(() => {
      const end = performance.now() + 20;
      while (performance.now() < end);
    }, 1);
    let report: { latency: { p50: number }; requests: { total: number }; errors: number; non2xx: number };
    try {
      // The load tool in its own process, its clock untouched by the busy loop: 4 connections, 3 s.
      report = await new Promise((resolve, reject) => {
        const tool = spawn(
          process.execPath,
          [join(import.meta.dirname, '../../node_modules/autocannon/autocannon.js'), '-j', '-c', '4', '-d', '3', `${t.url}/api/config`],
          {
            stdio: ['ignore', 'pipe', 'ignore'],
          },
        );
        let out = '';
        tool.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        const timer = setTimeout(() => tool.kill('SIGKILL'), 30_000);
        tool.once('exit', () => {
          clearTimeout(timer);
          try {
            resolve(JSON.parse(out));
          } catch (error) {
            reject(error);
          }
        });
      });
    } finally {
      clearInterval(busy);
    }
    const after = await buckets();
    const delta = after.map(({ le, count }) => ({ le, count: count - (before.find((b) => b.le === le)?.count ?? 0) }));
    expect([report.errors, report.non2xx]).toEqual([0, 0]);
    // The tool leaves out the answers still on their way when its time is up: one per connection.
    expect(delta.at(-1)?.count).toBeGreaterThanOrEqual(report.requests.total);
    expect(delta.at(-1)?.count).toBeLessThanOrEqual(report.requests.total + 4);
    const server = histogramMedian(delta) * 1000;
    const client = report.latency.p50;
    console.info(
      `request median: histogram ${server.toFixed(1)} ms, load tool ${client} ms, ${report.requests.total} requests`,
      JSON.stringify(delta.filter((b, i) => b.count > (delta[i - 1]?.count ?? 0)).map((b) => [b.le * 1000, b.count])),
    );
    expect(Math.abs(server - client) / client, `histogram ${server} ms, load tool ${client} ms`).toBeLessThanOrEqual(0.2);
  }, 60_000);
});
