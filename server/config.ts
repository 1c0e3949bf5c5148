// Configuration from the environment (README "Configuration"). One place reads process.env.
import { DEFAULT_CASELOAD_BOUND } from './lib/records/caseload';
import { isIP } from 'node:net';
import path from 'node:path';
import { DEFAULT_DB_TIMEOUTS, type DbTimeouts } from './db/index';
import { DEFAULT_HASH_LIMITS } from './lib/passwords';
import { COUNT_BOUND } from './lib/records/count';
import { contactFromEnv, type ContactDetails } from './plugins/publicConfig';
import { DEFAULT_LOCK_AFTER_MINUTES, isLockAfterMinutes, MAX_LOCK_AFTER_MINUTES } from '../schemas/publicConfig';

/** A setting refused at start: its message is one line naming the variable and what it allows
 * (server/main.ts prints it and exits with 1). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface Config extends DbTimeouts {
  port: number;
  host: string;
  /** Folder of the embedded database (PGlite); `memory://` keeps it in memory (tests). */
  dataDir: string;
  /** A PostgreSQL server instead of the embedded database: the role the app connects as. */
  databaseUrl?: string;
  /** The role that owns the tables on that server (DATABASE_OWNER_URL): it runs the migrations
   * at start, and the app's role gets only what it needs, the audit log append-only
   * (README "Running against PostgreSQL", docs/security.md "Audit log"). Unset: one role. */
  databaseOwnerUrl?: string;
  /** Signs session tokens. When unset, a random secret is made once and kept in the database. */
  jwtSecret?: string;
  /** How long a session token lives, in seconds. */
  tokenTtlSeconds: number;
  adminUserName: string;
  adminPassword?: string;
  /** Folder of the built front end; null serves the API only. */
  staticDir: string | null;
  logLevel: string;
  /** The programme's site, linked from the app's footer (GET /api/config); none: no link. */
  programmeUrl?: string;
  /** The programme's contact details of "Contact us" (GET /api/config). */
  contact: ContactDetails;
  /** Fastify's trustProxy: behind reverse proxies, their addresses or ranges
   * ('10.0.0.1,10.0.0.2', '10.0.0.0/24': only a peer among them is believed), or how many there
   * are in front (a hop count: believed only from a loopback peer, the proxy on this machine),
   * so that password throttling counts each client's address from X-Forwarded-For, not the
   * proxy's, and HTTPS is known from X-Forwarded-Proto (docs/security.md "Sessions and accounts", TRUST_PROXY). Never
   * `true`: that believes the left-most address, which the client writes. */
  trustProxy: false | number | string;
  /** Password hashes and checks running at once, and waiting (beyond: 503, lib/passwords.ts). */
  passwordHashConcurrency: number;
  passwordHashQueue: number;
  /** MapLibre style the built app uses instead of its bundled base map; its origin is allowed by
   * the Content-Security-Policy. The build reads the same address as VITE_MAP_STYLE_URL. */
  mapStyleUrl?: string;
  /** The most markers /stats/geo sends as points; above it, it sends clusters counted per
   * group on a grid of the asked zoom, and the map asks for the points of its view when
   * zoomed in (docs/performance.md "Dashboard calls together"). */
  mapPointsLimit: number;
  /** Rows a list counts exactly before it answers "more than" (LIST_COUNT_BOUND; server/lib/records/count.ts). */
  listCountBound: number;
  /** The most clients a field worker's device mirrors (CASELOAD_BOUND; docs/product.md "The
   * caseload"): beyond it, the nearest come first and the rest is reported. */
  caseloadBound: number;
  /** Minutes without use after which the app locks the device (GET /api/config); 0: never. */
  lockAfterMinutes: number;
  /** Days the audit log keeps an entry (AUDIT_RETENTION_DAYS); 0, the default: forever. */
  auditRetentionDays: number;
  /** GET /api/metrics is collected and served (METRICS=off: neither). */
  metrics: boolean;
  /** A Prometheus server's bearer token for GET /api/metrics (METRICS_TOKEN), beside role 1. */
  metricsToken?: string;
  /** Seconds a stopping process answers its readiness check 503 "draining", still serving
   * everything else, before it closes (SHUTDOWN_DRAIN_SECONDS, lib/drain.ts); 0: close at once. */
  shutdownDrainSeconds: number;
}

/** Fits the README's balancers: HAProxy checks every 2 s and takes a process out after 3
 * failures (at most about 6 s after the drain starts); nginx needs none (deploy/). */
export const DEFAULT_SHUTDOWN_DRAIN_SECONDS = 8;
/** The longest drain: a stop must stay well within a service manager's own limit (systemd: 90 s). */
const MAX_SHUTDOWN_DRAIN_SECONDS = 60;

/** SHUTDOWN_DRAIN_SECONDS: seconds from 0 to 60 (tenths allowed), else a clear refusal at start. */
function drainSecondsFrom(value: string | undefined): number {
  const text = value?.trim();
  if (!text) return DEFAULT_SHUTDOWN_DRAIN_SECONDS;
  const seconds = /^\d+(\.\d)?$/.test(text) ? Number(text) : NaN;
  if (!(seconds <= MAX_SHUTDOWN_DRAIN_SECONDS))
    throw new ConfigError(
      `SHUTDOWN_DRAIN_SECONDS must be a number of seconds from 0 to ${MAX_SHUTDOWN_DRAIN_SECONDS} (e.g. 8 or 1.5), got "${value}"`,
    );
  return seconds;
}

/** LOCK_AFTER_MINUTES: an integer 0..1440, else a clear refusal at start. */
function lockAfterMinutesFrom(value: string | undefined): number {
  const text = value?.trim();
  if (!text) return DEFAULT_LOCK_AFTER_MINUTES;
  const minutes = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!isLockAfterMinutes(minutes)) {
    throw new ConfigError(
      `LOCK_AFTER_MINUTES must be a whole number of minutes from 0 (never lock) to ${MAX_LOCK_AFTER_MINUTES}, got "${value}"`,
    );
  }
  return minutes;
}

/** AUDIT_RETENTION_DAYS: a whole number of days, 0 (the default) keeping entries forever. */
function retentionDaysFrom(value: string | undefined): number {
  const text = value?.trim();
  if (!text) return 0;
  if (!/^\d+$/.test(text) || Number(text) > 36_500)
    throw new ConfigError(`AUDIT_RETENTION_DAYS must be a whole number of days (0: keep forever), got "${value}"`);
  return Number(text);
}

function trustProxyFrom(value: string | undefined): false | number | string {
  const text = value?.trim();
  if (!text || text === 'false') return false;
  if (text === 'true') {
    throw new ConfigError(
      'TRUST_PROXY=true would believe any X-Forwarded-For address a client writes: give the number of proxies in front of the server (e.g. TRUST_PROXY=1) or their addresses (TRUST_PROXY=10.0.0.1,10.0.0.2)',
    );
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > 10)
      throw new ConfigError(`TRUST_PROXY must be a number of proxies from 1 to 10 or their addresses, got "${value}"`);
    return hops;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  const wrong = entries.find((entry) => !isAddressOrRange(entry));
  if (wrong !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be the proxies' addresses or ranges (TRUST_PROXY=127.0.0.1, 10.0.0.1,10.0.0.2 or 10.0.0.0/24) or their number from 1 to 10, got "${wrong}"`,
    );
  }
  return entries.join(',');
}

/** An IPv4 or IPv6 address, or a range of them in CIDR form (10.0.0.0/24, fd00::/8). */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** METRICS_TOKEN: long enough not to be guessed (it opens the metrics to whoever holds it), or unset. */
const MIN_METRICS_TOKEN_LENGTH = 24;

function metricsTokenFrom(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (text.length < MIN_METRICS_TOKEN_LENGTH || /\s/.test(text)) {
    throw new ConfigError(
      `METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters without spaces (e.g. \`openssl rand -hex 24\`), or unset`,
    );
  }
  return text;
}

function onOff(name: string, value: string | undefined, fallback: boolean): boolean {
  const text = value?.trim().toLowerCase();
  if (!text) return fallback;
  if (['on', 'true', '1'].includes(text)) return true;
  if (['off', 'false', '0'].includes(text)) return false;
  throw new ConfigError(`${name} must be on or off, got "${value}"`);
}

/** JWT_SECRET signs every session: at least 32 bytes, or unset (a random one is kept in the database). */
const MIN_JWT_SECRET_BYTES = 32;

function jwtSecretFrom(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (Buffer.byteLength(value, 'utf8') < MIN_JWT_SECRET_BYTES) {
    throw new ConfigError(
      `JWT_SECRET must be at least ${MIN_JWT_SECRET_BYTES} bytes long (it is ${Buffer.byteLength(value, 'utf8')}); leave it unset and the server makes a random one, kept in the database`,
    );
  }
  return value;
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (!value?.trim()) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`${name} must be a whole number from 1, got "${value}"`);
  return n;
}

/** An http(s) address, else a clear refusal at start: a typo must not become a broken link. */
function webAddress(name: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an http or https address, got "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError(`${name} must be an http or https address, got "${value}"`);
  return url.href;
}

/** DATABASE_OWNER_URL: a second role on the same PostgreSQL server, so DATABASE_URL is required. */
function ownerUrlFrom(value: string | undefined, databaseUrl: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (!databaseUrl)
    throw new ConfigError(
      'DATABASE_OWNER_URL is the owner role of a PostgreSQL database: set DATABASE_URL (the app role) too, or unset DATABASE_OWNER_URL for the embedded database',
    );
  return text;
}

/** A whole number from `min` to `max`; unset or blank: `fallback`. */
function integer(name: string, value: string | undefined, fallback: number, min: number, max: number, unit = ''): number {
  const text = value?.trim();
  if (!text) return fallback;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= min && n <= max)) {
    throw new ConfigError(`${name} must be a whole number${unit ? ` of ${unit}` : ''} from ${min} to ${max}, got "${value}"`);
  }
  return n;
}

/** One of `allowed`; unset or blank: `fallback`. */
function oneOf(name: string, value: string | undefined, fallback: string, allowed: readonly string[]): string {
  const text = value?.trim();
  if (!text) return fallback;
  if (!allowed.includes(text)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return text;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The most a setting counted in milliseconds may be: an hour. */
const HOUR_MS = 3_600_000;

type Env = NodeJS.ProcessEnv;

/** One row of the configuration: the variables it reads, its default and what it allows as
 * people read them (README "Configuration" lists the same variables: test/unit/config.test.ts),
 * and how it is read. A wrong value stops the start with a ConfigError. */
export interface Setting<K extends keyof Config = keyof Config> {
  names: readonly string[];
  default: string;
  allowed: string;
  read: (env: Env) => Config[K];
}

const setting = <K extends keyof Config>(row: Setting<K>) => row;

/** A database timeout in milliseconds, from 1 ms to an hour. */
const dbTimeout = <K extends 'statementTimeoutMs' | 'connectTimeoutMs' | 'idleInTransactionTimeoutMs'>(name: string, fallback: number) =>
  setting<K>({
    names: [name],
    default: String(fallback),
    allowed: `milliseconds from 1 to ${HOUR_MS}`,
    read: (env) => integer(name, env[name], fallback, 1, HOUR_MS, 'milliseconds'),
  });

/** The whole configuration, one row per Config field, in the README's order. */
export const SETTINGS: { [K in keyof Config]: Setting<K> } = {
  port: setting({
    names: ['PORT'],
    default: '8080',
    allowed: 'a port from 0 (any free port) to 65535',
    read: (env) => integer('PORT', env.PORT, 8080, 0, 65_535),
  }),
  host: setting({ names: ['HOST'], default: '0.0.0.0', allowed: 'an address to listen on', read: (env) => env.HOST?.trim() || '0.0.0.0' }),
  dataDir: setting({ names: ['DATA_DIR'], default: './data', allowed: 'a folder', read: (env) => env.DATA_DIR || './data' }),
  databaseUrl: setting({
    names: ['DATABASE_URL'],
    default: '(none)',
    allowed: 'a postgres:// address',
    read: (env) => env.DATABASE_URL || undefined,
  }),
  databaseOwnerUrl: setting({
    names: ['DATABASE_OWNER_URL'],
    default: '(none)',
    allowed: 'a postgres:// address; needs DATABASE_URL',
    read: (env) => ownerUrlFrom(env.DATABASE_OWNER_URL, env.DATABASE_URL || undefined),
  }),
  jwtSecret: setting({
    names: ['JWT_SECRET'],
    default: 'made once, kept in the database',
    allowed: `at least ${MIN_JWT_SECRET_BYTES} bytes`,
    read: (env) => jwtSecretFrom(env.JWT_SECRET),
  }),
  tokenTtlSeconds: setting({
    names: ['TOKEN_TTL_SECONDS'],
    default: '43200',
    allowed: 'seconds from 60 to 2592000 (30 days)',
    read: (env) => integer('TOKEN_TTL_SECONDS', env.TOKEN_TTL_SECONDS, 12 * 3600, 60, 30 * 24 * 3600, 'seconds'),
  }),
  adminUserName: setting({
    names: ['ADMIN_USERNAME'],
    default: 'admin',
    allowed: 'a user name',
    read: (env) => env.ADMIN_USERNAME || 'admin',
  }),
  adminPassword: setting({
    names: ['ADMIN_PASSWORD'],
    default: 'random, in a file',
    allowed: 'a password',
    read: (env) => env.ADMIN_PASSWORD || undefined,
  }),
  logLevel: setting({
    names: ['LOG_LEVEL'],
    // Warnings and errors only by default: one JSON line per request (info) would scroll the
    // start-up lines away (docs/adr/0044-quiet-terminal.md "A quiet terminal"); LOG_LEVEL=info brings it back.
    default: 'warn',
    allowed: LOG_LEVELS.join(', '),
    read: (env) => oneOf('LOG_LEVEL', env.LOG_LEVEL, 'warn', LOG_LEVELS),
  }),
  staticDir: setting({
    names: ['STATIC_DIR'],
    default: './dist',
    allowed: 'a folder',
    read: (env) => path.resolve(env.STATIC_DIR ?? 'dist'),
  }),
  statementTimeoutMs: dbTimeout('DB_STATEMENT_TIMEOUT_MS', DEFAULT_DB_TIMEOUTS.statementTimeoutMs),
  connectTimeoutMs: dbTimeout('DB_CONNECT_TIMEOUT_MS', DEFAULT_DB_TIMEOUTS.connectTimeoutMs),
  idleInTransactionTimeoutMs: dbTimeout('DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', DEFAULT_DB_TIMEOUTS.idleInTransactionTimeoutMs),
  trustProxy: setting({
    names: ['TRUST_PROXY'],
    default: '(off)',
    allowed: "the proxies' addresses or ranges, or their number from 1 to 10",
    read: (env) => trustProxyFrom(env.TRUST_PROXY),
  }),
  passwordHashConcurrency: setting({
    names: ['PASSWORD_HASH_CONCURRENCY'],
    default: String(DEFAULT_HASH_LIMITS.concurrency),
    allowed: 'a whole number from 1',
    read: (env) => positiveInteger('PASSWORD_HASH_CONCURRENCY', env.PASSWORD_HASH_CONCURRENCY, DEFAULT_HASH_LIMITS.concurrency),
  }),
  passwordHashQueue: setting({
    names: ['PASSWORD_HASH_QUEUE'],
    default: String(DEFAULT_HASH_LIMITS.waiting),
    allowed: 'a whole number from 1',
    read: (env) => positiveInteger('PASSWORD_HASH_QUEUE', env.PASSWORD_HASH_QUEUE, DEFAULT_HASH_LIMITS.waiting),
  }),
  programmeUrl: setting({
    names: ['PROGRAMME_URL'],
    default: '(none)',
    allowed: 'an http or https address',
    read: (env) => webAddress('PROGRAMME_URL', env.PROGRAMME_URL?.trim()),
  }),
  contact: setting({
    names: ['CONTACT_NAME', 'CONTACT_EMAIL', 'CONTACT_PHONE', 'CONTACT_ADDRESS', 'CONTACT_HOURS'],
    default: '(none)',
    allowed: 'texts; an e-mail address, a phone number',
    read: (env) => contactFromEnv(env),
  }),
  mapStyleUrl: setting({
    names: ['MAP_STYLE_URL', 'VITE_MAP_STYLE_URL'],
    default: 'the base map shipped with the app',
    allowed: 'a MapLibre style address',
    read: (env) => env.MAP_STYLE_URL || env.VITE_MAP_STYLE_URL || undefined,
  }),
  mapPointsLimit: setting({
    names: ['MAP_POINTS_LIMIT'],
    default: '20000',
    allowed: 'a whole number from 1 to 1000000',
    read: (env) => integer('MAP_POINTS_LIMIT', env.MAP_POINTS_LIMIT, 20_000, 1, 1_000_000),
  }),
  listCountBound: setting({
    names: ['LIST_COUNT_BOUND'],
    default: String(COUNT_BOUND),
    allowed: 'a whole number from 1',
    read: (env) => countBoundFrom(env.LIST_COUNT_BOUND),
  }),
  lockAfterMinutes: setting({
    names: ['LOCK_AFTER_MINUTES'],
    default: String(DEFAULT_LOCK_AFTER_MINUTES),
    allowed: `minutes from 0 (never) to ${MAX_LOCK_AFTER_MINUTES}`,
    read: (env) => lockAfterMinutesFrom(env.LOCK_AFTER_MINUTES),
  }),
  caseloadBound: setting({
    names: ['CASELOAD_BOUND'],
    default: String(DEFAULT_CASELOAD_BOUND),
    allowed: 'a whole number from 1',
    read: (env) => positiveInteger('CASELOAD_BOUND', env.CASELOAD_BOUND, DEFAULT_CASELOAD_BOUND),
  }),
  auditRetentionDays: setting({
    names: ['AUDIT_RETENTION_DAYS'],
    default: '0',
    allowed: 'days from 0 (forever) to 36500',
    read: (env) => retentionDaysFrom(env.AUDIT_RETENTION_DAYS),
  }),
  metrics: setting({ names: ['METRICS'], default: 'on', allowed: 'on or off', read: (env) => onOff('METRICS', env.METRICS, true) }),
  metricsToken: setting({
    names: ['METRICS_TOKEN'],
    default: '(none)',
    allowed: `at least ${MIN_METRICS_TOKEN_LENGTH} characters`,
    read: (env) => metricsTokenFrom(env.METRICS_TOKEN),
  }),
  shutdownDrainSeconds: setting({
    names: ['SHUTDOWN_DRAIN_SECONDS'],
    default: String(DEFAULT_SHUTDOWN_DRAIN_SECONDS),
    allowed: `seconds from 0 to ${MAX_SHUTDOWN_DRAIN_SECONDS}`,
    read: (env) => drainSecondsFrom(env.SHUTDOWN_DRAIN_SECONDS),
  }),
};

/** The configuration read through SETTINGS; the first wrong variable throws its ConfigError. */
export function configFromEnv(env: Env = process.env): Config {
  const entries = Object.entries(SETTINGS) as [keyof Config, Setting][];
  return Object.fromEntries(entries.map(([key, row]) => [key, row.read(env)])) as unknown as Config;
}

/** LIST_COUNT_BOUND: a whole number from 1; unset, the default (10,000). */
function countBoundFrom(value: string | undefined): number {
  if (value === undefined || value === '') return COUNT_BOUND;
  const bound = Number(value);
  if (!Number.isInteger(bound) || bound < 1) throw new ConfigError(`LIST_COUNT_BOUND must be a whole number from 1, got "${value}"`);
  return bound;
}
