// The one query layer: the same SQL runs on PGlite (embedded default) and on a PostgreSQL
// server (DATABASE_URL). Everything above this file sees only `Db` and `Queryable`.
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Calls `onMessage` with the payload of every NOTIFY on `channel` (committed writes only). */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /** Runs `work` in one transaction: all of it is stored, or none of it. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DbOptions {
  databaseUrl?: string;
  dataDir: string;
}

export async function openDb(options: DbOptions): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}

async function openPglite(dataDir: string): Promise<Db> {
  if (!dataDir.includes('://')) mkdirSync(dataDir, { recursive: true });
  const lite = await PGlite.create(dataDir, { parsers: { [DATE_OID]: (value: string) => value } });
  const run = async <T extends Row>(q: Pick<PGlite, 'query'>, sql: string, params?: readonly unknown[]) =>
    (await q.query<T>(sql, params ? [...params] : undefined)).rows;
  return {
    kind: 'pglite',
    query: (sql, params) => run(lite, sql, params),
    transaction: (work) => lite.transaction((tx) => work({ query: (sql, params) => run(tx, sql, params) })),
    listen: (channel, onMessage) => lite.listen(channel, onMessage),
    close: () => lite.close(),
  };
}

// Integers too large for a JS number never occur in our counts; read int8 as number.
pg.types.setTypeParser(20, (value) => Number(value));
// A calendar date stays the text 'YYYY-MM-DD': as a JS Date it would shift with the time zone.
const DATE_OID = 1082;
pg.types.setTypeParser(DATE_OID, (value) => value);

async function openPostgres(connectionString: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  const run = async <T extends Row>(q: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]) =>
    (await q.query<T>(sql, params ? [...params] : undefined)).rows;
  await run(pool, 'SELECT 1'); // fail at start, not at the first request
  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work({ query: (sql, params) => run(client, sql, params) });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    listen: (channel, onMessage) => listenPostgres(connectionString, channel, onMessage),
    close: () => pool.end(),
  };
}

/** A dedicated connection for LISTEN (a pooled one would lose it), reconnecting after a failure. */
async function listenPostgres(connectionString: string, channel: string, onMessage: (payload: string) => void) {
  let client: pg.Client | undefined;
  let stopped = false;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString });
    next.on('notification', (message) => message.channel === channel && onMessage(message.payload ?? ''));
    next.on('error', () => {
      next.end().catch(() => undefined);
      if (!stopped) setTimeout(() => void connect().catch(() => undefined), 1000);
    });
    await next.connect();
    await next.query(`LISTEN "${channel.replace(/"/g, '')}"`);
    client = next;
  };
  await connect();
  return async () => {
    stopped = true;
    await client?.end().catch(() => undefined);
  };
}
