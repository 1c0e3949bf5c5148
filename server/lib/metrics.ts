// What GET /api/metrics tells a Prometheus server (ADR-0038): requests, database connections,
// uploads, change streams and password checks, in one registry per server (a test builds
// several servers in one process; prom-client's global registry would mix them).
// docs/api.md "Metrics" lists every series.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/index';

/** What the rest of the server tells the metrics. With METRICS=off every call does nothing. */
export interface Metrics {
  /** A request answered: its method, its route's pattern (never the raw URL: one series per route), status and time. */
  requestDone(method: string, route: string, status: number, seconds: number): void;
  /** An upload batch received, before it is read and stored: the returned function says it is done. */
  uploadReceived(): () => void;
  /** An upload batch stored: its table, the records stored and those refused (an answer other than 2xx). */
  uploadBatch(table: string, stored: number, refused: number): void;
  /** The change streams open now are counted by `count` at each scrape. */
  countStreams(count: () => number): void;
  /** A change stream opened. */
  streamOpened(): void;
  /** A change heard from the database (LISTEN), before it is fanned out to the streams. */
  changeHeard(): void;
  /** `events` change events written to one stream. */
  streamEventsSent(events: number): void;
  /** An open stream asked whether its session still lasts (a change of its user, lost
   * notifications, a heartbeat): one database read each. */
  streamSessionChecked(): void;
  /** A pull of the feed (GET /api/sync/{table}) answered in `seconds`. */
  pullDone(table: string, seconds: number): void;
  /** A sign-in refused for a wrong name or password. */
  signInFailed(): void;
  /** A password check refused before it ran, the throttle's limit being reached (429). */
  throttled(): void;
  /** The Prometheus text and its content type. */
  exposition(): Promise<{ contentType: string; text: string }>;
}

export const NO_METRICS: Metrics = {
  requestDone: () => undefined,
  uploadReceived: () => () => undefined,
  uploadBatch: () => undefined,
  countStreams: () => undefined,
  streamOpened: () => undefined,
  changeHeard: () => undefined,
  streamEventsSent: () => undefined,
  streamSessionChecked: () => undefined,
  pullDone: () => undefined,
  signInFailed: () => undefined,
  throttled: () => undefined,
  exposition: async () => ({ contentType: 'text/plain; version=0.0.4; charset=utf-8', text: '' }),
};

/** Latency buckets in seconds: from a cached list (a few ms) to a large upload batch (seconds),
 * at most 1.25 apart from 10 to 250 ms, where most answers fall, a busy process's included, so
 * that a median read from them (histogram_quantile) is within a few per cent
 * (docs/operations.md "Request durations"). */
const LATENCY_BUCKETS = [
  0.002, 0.005, 0.0075, 0.01, 0.0125, 0.015, 0.0175, 0.02, 0.025, 0.03, 0.035, 0.04, 0.05, 0.06, 0.075, 0.1, 0.125, 0.15, 0.175, 0.2, 0.25,
  0.3, 0.4, 0.5, 1, 2.5, 5, 10,
];
/** Records per upload batch: the app sends up to PUSH_LIMITS.records (200) at once. */
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200];
/** prom-client's defaults that are gauges named like counters (`promtool check metrics` refuses
 * them): the same figure is the sum of the gauge of the same name without `_total`, by type. */
const GAUGES_NAMED_LIKE_COUNTERS = [
  'icrs_nodejs_active_handles_total',
  'icrs_nodejs_active_requests_total',
  'icrs_nodejs_active_resources_total',
];
/** Connection waits: nothing when the pool has a free one, up to the connect timeout (5 s). */
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5];

export function createMetrics(db: Db): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'icrs_' }); // CPU, memory, event-loop delay, handles
  for (const name of GAUGES_NAMED_LIKE_COUNTERS) registry.removeSingleMetric(name);

  const requests = new Counter({
    name: 'icrs_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'icrs_http_request_duration_seconds',
    help: "Time from the request reaching the process (its socket read, or the end of the event loop's last idle wait) to the answer written, by method, route pattern and status.",
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

  const receiving = new Gauge({
    name: 'icrs_upload_batches_in_progress',
    help: 'Upload batches received and not yet answered (being read or stored).',
    registers: [registry],
  });
  const batchSizes = new Histogram({
    name: 'icrs_upload_batch_records',
    help: 'Records per upload batch, by table.',
    labelNames: ['table'],
    buckets: BATCH_BUCKETS,
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

  const streamsOpened = new Counter({
    name: 'icrs_change_streams_opened_total',
    help: 'Change streams opened on this process.',
    registers: [registry],
  });
  const changesHeard = new Counter({
    name: 'icrs_changes_heard_total',
    help: 'Changes heard from the database (every process hears every write), each fanned out to the open streams.',
    registers: [registry],
  });
  const sessionChecks = new Counter({
    name: 'icrs_change_stream_session_checks_total',
    help: "Session checks of open change streams (a change of the stream's own user, lost notifications, a heartbeat): one database read each.",
    registers: [registry],
  });
  const eventsSent = new Counter({
    name: 'icrs_change_stream_events_total',
    help: 'Change events written to the open streams (the fan-out: per change heard, the streams told).',
    registers: [registry],
  });
  const pulls = new Histogram({
    name: 'icrs_sync_pull_duration_seconds',
    help: 'Time to read one page of the pull feed (GET /api/sync/{table}), by table.',
    labelNames: ['table'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
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
    uploadReceived() {
      receiving.inc();
      let done = false;
      return () => {
        if (!done) receiving.dec();
        done = true;
      };
    },
    uploadBatch(table, stored, refused) {
      batches.inc({ table });
      batchSizes.observe({ table }, stored + refused);
      if (stored) records.inc({ table, outcome: 'stored' }, stored);
      if (refused) records.inc({ table, outcome: 'refused' }, refused);
    },
    countStreams(count) {
      streamCount = count;
    },
    streamOpened: () => streamsOpened.inc(),
    changeHeard: () => changesHeard.inc(),
    streamEventsSent: (events) => eventsSent.inc(events),
    streamSessionChecked: () => sessionChecks.inc(),
    pullDone: (table, seconds) => pulls.observe({ table }, seconds),
    signInFailed: () => signInFailures.inc(),
    throttled: () => throttledTries.inc(),
    exposition: async () => ({ contentType: registry.contentType, text: await registry.metrics() }),
  };
}
