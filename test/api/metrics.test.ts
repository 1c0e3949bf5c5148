// GET /api/metrics (issue 29): Prometheus' text format, read by a strict parser of that format;
// served to role 1 and to the scrape token only; each series moves with what it counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { job } from '../../schemas/index';
import { LOGIN_LIMITS } from '../../server/lib/throttle';
import { configFromEnv } from '../../server/config';
import { backends } from '../helpers/db';
import { parsePrometheusText, valueOf, type Family } from '../helpers/prometheus';
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

  const scrape = async (authorization = `Bearer ${SCRAPE_TOKEN}`): Promise<Map<string, Family>> => {
    const response = await fetch(`${t.url}/api/metrics`, { headers: { authorization } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await response.text());
  };

  it('answers role 1 and the scrape token in the text format; refuses anonymous users, every other role and a wrong token', async () => {
    const families = await scrape(`Bearer ${tokens[1]}`);
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
    ]) {
      expect(families.get(name)?.help, name).toBeTruthy();
    }
    expect(families.get('icrs_http_request_duration_seconds')?.type).toBe('histogram');
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
    const routes = after.get('icrs_http_requests_total')?.samples.map((s) => s.labels.route) ?? [];
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
  });

  it('counts the open change streams', async () => {
    const before = valueOf(await scrape(), 'icrs_change_streams_open');
    const stream = new StreamReader();
    await stream.open(await t.streamUrl(tokens[3] as string));
    expect(valueOf(await scrape(), 'icrs_change_streams_open')).toBe(before + 1);
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
