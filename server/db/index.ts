// The one query layer: the same SQL runs on PGlite (embedded default) and on a PostgreSQL
// server (DATABASE_URL). Everything above this file sees only `Db` and `Queryable`.
//
// A PostgreSQL server can restart, be stopped or freeze under the process: every connection
// fault here is survived (logged through `onFault`, never an unhandled 'error'), a query fails
// within the timeouts instead of hanging, and the LISTEN connection comes back by itself.
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { privateTree } from '../lib/privateFiles';

export type Row = Record<string, unknown>;

/** Statements that change rows (a SELECT calling a function that writes is not one we make). */
const WRITES = /^\s*(INSERT|UPDATE|DELETE|WITH\b[\s\S]*\b(INSERT|UPDATE|DELETE)\b)/i;

export function isWrite(sql: string): boolean {
  return WRITES.test(sql);
}

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** Called with a connection fault the layer survived, for the log. */
export type FaultListener = (error: unknown, what: string) => void;

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Calls `onMessage` with the payload of every NOTIFY on `channel` (committed writes only).
   * When the listening connection is lost it is made again, with backoff, for ever; each time
   * it is back `onResumed` is called: notifications sent meanwhile were missed.
   */
  listen(channel: string, onMessage: (payload: string) => void, onResumed?: () => void): Promise<() => Promise<void>>;
  /** Runs `work` in one transaction: all of it is stored, or none of it. `settings` are set
   * for the transaction only (set_config(name, value, true)) before `work`; on PostgreSQL in the
   * same round trip as BEGIN. */
  transaction<T>(work: (tx: Queryable) => Promise<T>, settings?: Readonly<Record<string, string>>): Promise<T>;
  /** Whether the database answers within `timeoutMs`; never throws, never waits longer. */
  ping(timeoutMs: number): Promise<boolean>;
  /** Listens to the faults the layer survived (lost connections, a failed LISTEN). */
  onFault(listener: FaultListener): void;
  /** How the connections are used now (GET /api/metrics). */
  usage(): DbUsage;
  /** Hears every wait for a connection: how long it took, and whether one came. */
  onConnectionWait(listener: ConnectionWaitListener): void;
  close(): Promise<void>;
}

/** Connections now: the most there may be, those open, those idle, and requests waiting for one.
 * The embedded database has one connection, busy while a statement or transaction runs. */
export interface DbUsage {
  max: number;
  open: number;
  idle: number;
  waiting: number;
}

export type ConnectionWaitListener = (seconds: number, gotOne: boolean) => void;

/** Time limits of the PostgreSQL connections (README "Configuration"). */
export interface DbTimeouts {
  /** The server cancels a statement running longer (statement_timeout); 0: never (the
   * migrations' own connection, server/db/roles.ts). */
  statementTimeoutMs: number;
  /** Making a connection, or waiting for a free one in the pool, fails after this. */
  connectTimeoutMs: number;
  /** The server ends a session left idle inside a transaction (idle_in_transaction_session_timeout). */
  idleInTransactionTimeoutMs: number;
}

export const DEFAULT_DB_TIMEOUTS: DbTimeouts = {
  statementTimeoutMs: 15_000,
  connectTimeoutMs: 5_000,
  idleInTransactionTimeoutMs: 30_000,
};

/**
 * The client gives up waiting for an answer this long after the server should have cancelled
 * the statement itself: it only fires when the server or the network is frozen.
 */
const QUERY_READ_MARGIN_MS = 2_000;
/** TCP keepalive probes start after this much silence (a vanished server is noticed). */
const KEEPALIVE_DELAY_MS = 10_000;
/** LISTEN reconnects after 0.5 s, then 1, 2, 4, 8 and every 10 s until it is back. */
const LISTEN_RETRY_FIRST_MS = 500;
const LISTEN_RETRY_MAX_MS = 10_000;
/** The LISTEN connection is asked `SELECT 1` this often: a silent, half-open one is replaced. */
const LISTEN_PING_MS = 15_000;

export interface DbOptions extends Partial<DbTimeouts> {
  databaseUrl?: string;
  dataDir: string;
  /** PGlite starts from this copy of a data folder (PGlite's `dumpDataDir`) instead of an empty
   * one: the tests' servers start from one database migrated once (test/helpers/pgliteImage.ts). */
  pgliteImage?: Blob;
}

export async function openDb(options: DbOptions): Promise<Db> {
  const timeouts: DbTimeouts = {
    statementTimeoutMs: options.statementTimeoutMs ?? DEFAULT_DB_TIMEOUTS.statementTimeoutMs,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_DB_TIMEOUTS.connectTimeoutMs,
    idleInTransactionTimeoutMs: options.idleInTransactionTimeoutMs ?? DEFAULT_DB_TIMEOUTS.idleInTransactionTimeoutMs,
  };
  return options.databaseUrl ? openPostgres(options.databaseUrl, timeouts) : openPglite(options.dataDir, options.pgliteImage);
}

/** Settles with `work`, or with `fallback` after `ms`, whichever comes first. The fallback
 * waits for one more turn of the event loop's I/O: after a long busy stretch (docs/operations.md,
 * a loaded process) timers run before the sockets are read, and an answer already arrived
 * must win over a limit that only ran out while the loop was busy. */
function within<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => (timer = setTimeout(() => setImmediate(() => resolve(fallback)), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function faultReporter() {
  const listeners = new Set<FaultListener>();
  return {
    onFault: (listener: FaultListener) => void listeners.add(listener),
    report: (error: unknown, what: string) => listeners.forEach((listener) => listener(error, what)),
  };
}

/** The rows of one statement on a PGlite connection or transaction. */
export async function pgliteRows<T extends Row>(q: Pick<PGlite, 'query'>, sql: string, params?: readonly unknown[]): Promise<T[]> {
  return (await q.query<T>(sql, params ? [...params] : undefined)).rows;
}

/** A bare PGlite as the migrations take it (`migrate`): the backup's copy and the tests' image
 * of a migrated database are made so, outside the server's own connection. */
export function pgliteMigratable(lite: PGlite): Pick<Db, 'transaction'> {
  return { transaction: (work) => lite.transaction((tx) => work({ query: (sql, params) => pgliteRows(tx, sql, params) })) };
}

async function openPglite(dataDir: string, image?: Blob): Promise<Db> {
  if (!dataDir.includes('://')) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // pg_trgm: the lists' substring search reads a trigram index (server/lib/records/listIndexes.ts),
  // as on PostgreSQL; the migration creates the extension from the files loaded here.
  const lite = await PGlite.create(dataDir, {
    parsers: { [DATE_OID]: (value: string) => value },
    extensions: { pg_trgm },
    ...(image ? { loadDataDir: image } : {}),
  });
  // A new folder's files come out 0666 whatever the umask (server/lib/privateFiles.ts).
  if (!dataDir.includes('://')) privateTree(dataDir);
  // PGlite runs one statement at a time: the others queue inside it. Counted for the metrics.
  let running = 0;
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    running += 1;
    try {
      return await work();
    } finally {
      running -= 1;
    }
  };
  const run = pgliteRows;
  // In-process: no connection to lose, so no fault to report and no LISTEN to resume.
  const faults = faultReporter();
  return {
    kind: 'pglite',
    query: (sql, params) => counted(() => run(lite, sql, params)),
    transaction: (work, settings) =>
      counted(() =>
        lite.transaction(async (tx) => {
          for (const [name, value] of Object.entries(settings ?? {})) await run(tx, 'SELECT set_config($1, $2, true)', [name, value]);
          return work({ query: (sql, params) => run(tx, sql, params) });
        }),
      ),
    listen: (channel, onMessage) => lite.listen(channel, onMessage),
    ping: (timeoutMs) =>
      within(
        run(lite, 'SELECT 1').then(
          () => true,
          () => false,
        ),
        timeoutMs,
        false,
      ),
    onFault: faults.onFault,
    usage: () => ({ max: 1, open: 1, idle: running === 0 ? 1 : 0, waiting: Math.max(0, running - 1) }),
    onConnectionWait: () => undefined, // no pool to wait for: a queued statement shows as `waiting`
    close: () => lite.close(),
  };
}

// Integers too large for a JS number never occur in our counts; read int8 as number.
pg.types.setTypeParser(20, (value) => Number(value));
// A calendar date stays the text 'YYYY-MM-DD': as a JS Date it would shift with the time zone.
const DATE_OID = 1082;
pg.types.setTypeParser(DATE_OID, (value) => value);

function clientConfig(connectionString: string, timeouts: DbTimeouts): pg.ClientConfig {
  return {
    connectionString,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs,
    // Without a statement timeout, the client waits as long as the server works.
    query_timeout: timeouts.statementTimeoutMs > 0 ? timeouts.statementTimeoutMs + QUERY_READ_MARGIN_MS : undefined,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  };
}

/** Connections each server process may open (several processes share the server's max_connections). */
const POOL_SIZE = 10;

async function openPostgres(connectionString: string, timeouts: DbTimeouts): Promise<Db> {
  const settings = clientConfig(connectionString, timeouts);
  const faults = faultReporter();
  const waits = new Set<ConnectionWaitListener>();
  const pool = new pg.Pool({ ...settings, max: POOL_SIZE });
  const connect = () => connectTimed(pool, waits);
  const probe = healthProbe(settings);
  // An idle client whose connection dies makes the pool emit 'error' (it already dropped the
  // client); a client that is checked out emits it itself. Unheard, either ends the process.
  pool.on('error', (error) => faults.report(error, 'an idle database connection was lost'));
  // A client in use also fails its running or next query, which is where that fault is reported.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const run = async <T extends Row>(q: pg.PoolClient, sql: string, params?: readonly unknown[]) =>
    (await q.query<T>(sql, params ? [...params] : undefined)).rows;
  // A statement on a pooled connection, as pool.query does it, except that a failure to get the
  // connection is told apart: it is always "unavailable" (503), whatever the server said.
  const query = async <T extends Row>(sql: string, params?: readonly unknown[]) => {
    const client = await connect();
    try {
      const rows = await run<T>(client, sql, params);
      client.release();
      return rows;
    } catch (error) {
      client.release(error as Error); // as pool.query: a client whose statement failed is not reused
      throw error;
    }
  };
  await query('SELECT 1'); // fail at start, not at the first request
  return {
    kind: 'postgres',
    query,
    async transaction(work, settings) {
      const client = await connect();
      let destroy = false;
      try {
        await client.query(beginWith(settings));
        const result = await work({ query: (sql, params) => run(client, sql, params) });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A lost or frozen connection cannot roll back (the server does it when the session
        // ends) and must not go back to the pool.
        destroy =
          isDatabaseUnavailable(error) ||
          !(await client.query('ROLLBACK').then(
            () => true,
            () => false,
          ));
        throw error;
      } finally {
        client.release(destroy);
      }
    },
    listen: (channel, onMessage, onResumed) => listenPostgres(settings, faults.report, channel, onMessage, onResumed),
    ping: (timeoutMs) => probe.ping(timeoutMs),
    onFault: faults.onFault,
    usage: () => ({ max: POOL_SIZE, open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    onConnectionWait: (listener) => void waits.add(listener),
    close: async () => {
      await probe.close();
      await pool.end();
    },
  };
}

/**
 * The health check's own connection, outside the request pool: a pool busy with requests (all
 * ten connections taken, others waiting) is not a database that does not answer (README
 * "Health and metrics"). One connection, kept open between checks; a check that fails or gets
 * no answer within its limit drops it, and the next check connects again, within that limit too.
 */
function healthProbe(settings: pg.ClientConfig) {
  let current: Promise<pg.Client> | undefined;
  const drop = (client: Promise<pg.Client>) => {
    if (current === client) current = undefined;
    client.then((c) => c.end()).catch(() => undefined);
  };
  const connected = (timeoutMs: number) => {
    if (current) return current;
    const client = new pg.Client({ ...settings, connectionTimeoutMillis: timeoutMs });
    const made = client.connect().then(() => client);
    current = made;
    client.on('error', () => drop(made)); // a lost connection: the next check makes a new one
    made.catch(() => drop(made));
    return made;
  };
  return {
    async ping(timeoutMs: number): Promise<boolean> {
      const started = performance.now();
      const client = connected(timeoutMs);
      const answered = client.then(async (c) => {
        // node-postgres reads a per-query `query_timeout` (its types omit it).
        const left = Math.max(1, timeoutMs - (performance.now() - started));
        const probe: pg.QueryConfig & { query_timeout: number } = { text: 'SELECT 1', query_timeout: left };
        await c.query(probe);
        return true;
      });
      const ok = await within(
        answered.catch(() => false),
        timeoutMs,
        false,
      );
      if (!ok) drop(client);
      return ok;
    },
    async close() {
      const client = current;
      current = undefined;
      await client?.then((c) => c.end()).catch(() => undefined);
    },
  };
}

/** A SQL string literal (standard_conforming_strings, on since PostgreSQL 9.1: only quotes double). */
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** BEGIN and the transaction's settings as one simple query: one round trip. */
function beginWith(settings: Readonly<Record<string, string>> = {}): string {
  const sets = Object.entries(settings).map(([name, value]) => `set_config(${literal(name)}, ${literal(value)}, true)`);
  return sets.length ? `BEGIN; SELECT ${sets.join(', ')}` : 'BEGIN';
}

/**
 * A dedicated connection for LISTEN (a pooled one would lose it). Whenever it fails it is made
 * again after a growing pause, for as long as the server runs; `onResumed` tells the caller that
 * notifications may have been missed meanwhile.
 */
async function listenPostgres(
  settings: pg.ClientConfig,
  report: FaultListener,
  channel: string,
  onMessage: (payload: string) => void,
  onResumed: () => void = () => undefined,
): Promise<() => Promise<void>> {
  let current: pg.Client | undefined;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = LISTEN_RETRY_FIRST_MS;
  let attempts = 0;

  const retryLater = () => {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, delay);
    delay = Math.min(delay * 2, LISTEN_RETRY_MAX_MS);
  };

  const connect = async (): Promise<void> => {
    attempts += 1;
    const client = new pg.Client(settings);
    let lost = false;
    const health: { ping?: NodeJS.Timeout } = {};
    const drop = (error: unknown) => {
      if (lost) return;
      lost = true;
      clearInterval(health.ping);
      if (current === client) current = undefined;
      client.end().catch(() => undefined);
      if (stopped) return;
      report(error, 'the change listener lost its database connection; reconnecting');
      retryLater();
    };
    client.on('error', drop);
    client.on('end', () => drop(new Error('Connection terminated')));
    client.on('notification', (message) => message.channel === channel && onMessage(message.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN "${channel.replace(/"/g, '')}"`);
    } catch (error) {
      drop(error);
      return;
    }
    if (lost) return;
    if (stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    current = client;
    delay = LISTEN_RETRY_FIRST_MS;
    health.ping = setInterval(() => client.query('SELECT 1').catch(drop), LISTEN_PING_MS);
    if (attempts > 1) onResumed();
  };

  await connect(); // a first failure does not stop the server: the retries go on in the background
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    await current?.end().catch(() => undefined);
  };
}

/** A failure to get a database connection (ADR-0014): refused, timed out, the pool full, or
 * the server not accepting connections (SQLSTATE 55000 or 57P03 during maintenance). The
 * request may be repeated later: always "unavailable", never a bug. */
class ConnectionFailure extends Error {
  readonly connectionFailure = true;
  readonly code: unknown;
  constructor(cause: unknown) {
    super(`no database connection: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.code = (cause as { code?: unknown } | null)?.code;
  }
}

/** A pooled connection, its wait told to `waits` (the metrics' connection waits). */
async function connectTimed(pool: pg.Pool, waits: ReadonlySet<ConnectionWaitListener>): Promise<pg.PoolClient> {
  const started = performance.now();
  const told = (gotOne: boolean) => waits.forEach((listener) => listener((performance.now() - started) / 1000, gotOne));
  try {
    const client = await pool.connect();
    told(true);
    return client;
  } catch (error) {
    told(false);
    throw new ConnectionFailure(error);
  }
}

const UNAVAILABLE_SYSTEM_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs meaning "the database cannot serve you now": admin_shutdown, crash_shutdown,
 * cannot_connect_now, query_canceled (statement_timeout), too_many_connections; class 08 is
 * connection_exception.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '57014', '53300']);
/** What node-postgres says when a connection dies or a time limit passes (no code of its own). */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|timeout expired|Query read timeout|not queryable|Cannot use a pool after calling end/i;

/** Whether `error` says the database is unreachable, gone or too slow (a 503, not a bug). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (error instanceof ConnectionFailure) return true;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_SYSTEM_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')))
    return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  // Node reports a refused connection to every address of a host name as an AggregateError.
  return Array.isArray(errors) && errors.some(isDatabaseUnavailable);
}
