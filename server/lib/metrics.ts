// What GET /api/metrics tells a Prometheus server (issue 29): requests, database connections,
// uploads, change streams and password checks, in one registry per server (a test builds
// several servers in one process; prom-client's global registry would mix them).
// docs/api.md "Metrics" lists every series.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/index';

/** What the rest of the server tells the metrics. With METRICS=off every call does nothing. */
export interface Metrics {
  /** A request answered: its method, its route's pattern (never the raw URL: one series per route), status and time. */
  requestDone(method: string, route: string, status: number, seconds: number): void;
  /** An upload batch stored: its table, the records stored and those refused (an answer other than 2xx). */
  uploadBatch(table: string, stored: number, refused: number): void;
  /** The change streams open now are counted by `count` at each scrape. */
  countStreams(count: () => number): void;
  /** A sign-in refused for a wrong name or password. */
  signInFailed(): void;
  /** A password check refused before it ran, the throttle's limit being reached (429). */
  throttled(): void;
  /** The Prometheus text and its content type. */
  exposition(): Promise<{ contentType: string; text: string }>;
}

export const NO_METRICS: Metrics = {
  requestDone: () => undefined,
  uploadBatch: () => undefined,
  countStreams: () => undefined,
  signInFailed: () => undefined,
  throttled: () => undefined,
  exposition: async () => ({ contentType: 'text/plain; version=0.0.4; charset=utf-8', text: '' }),
};

/** Latency buckets in seconds: from a cached list (a few ms) to a large upload batch (seconds). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Connection waits: nothing when the pool has a free one, up to the connect timeout (5 s). */
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5];

export function createMetrics(db: Db): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'icrs_' }); // CPU, memory, event-loop delay, handles

  const requests = new Counter({
    name: 'icrs_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'icrs_http_request_duration_seconds',
    help: 'Time from request to answer, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  new Gauge({
    name: 'icrs_db_connections',
    help: 'Database connections of this process, by state: open, idle, and the most there may be (max).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const usage = db.usage();
      this.set({ state: 'max' }, usage.max);
      this.set({ state: 'open' }, usage.open);
      this.set({ state: 'idle' }, usage.idle);
    },
  });
  new Gauge({
    name: 'icrs_db_connection_waiting',
    help: 'Requests waiting now for a database connection.',
    registers: [registry],
    collect() {
      this.set(db.usage().waiting);
    },
  });
  const waits = new Histogram({
    name: 'icrs_db_connection_wait_seconds',
    help: 'Time waited for a database connection, by outcome (got one or failed).',
    labelNames: ['outcome'],
    buckets: WAIT_BUCKETS,
    registers: [registry],
  });
  db.onConnectionWait((seconds, gotOne) => waits.observe({ outcome: gotOne ? 'ok' : 'failed' }, seconds));

  const batches = new Counter({
    name: 'icrs_upload_batches_total',
    help: 'Upload batches stored (POST /api/sync/push/{table}), by table.',
    labelNames: ['table'],
    registers: [registry],
  });
  const records = new Counter({
    name: 'icrs_upload_records_total',
    help: 'Records of upload batches, by table and outcome (stored or refused).',
    labelNames: ['table', 'outcome'],
    registers: [registry],
  });

  let streamCount: () => number = () => 0;
  new Gauge({
    name: 'icrs_change_streams_open',
    help: 'Change streams (GET /api/sync/stream) open now on this process.',
    registers: [registry],
    collect() {
      this.set(streamCount());
    },
  });

  const signInFailures = new Counter({
    name: 'icrs_signin_failures_total',
    help: 'Sign-ins refused for a wrong user name or password.',
    registers: [registry],
  });
  const throttledTries = new Counter({
    name: 'icrs_password_throttled_total',
    help: 'Password checks refused (429) because the tries of a user name or an address reached the limit.',
    registers: [registry],
  });

  return {
    requestDone(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    uploadBatch(table, stored, refused) {
      batches.inc({ table });
      if (stored) records.inc({ table, outcome: 'stored' }, stored);
      if (refused) records.inc({ table, outcome: 'refused' }, refused);
    },
    countStreams(count) {
      streamCount = count;
    },
    signInFailed: () => signInFailures.inc(),
    throttled: () => throttledTries.inc(),
    exposition: async () => ({ contentType: registry.contentType, text: await registry.metrics() }),
  };
}
