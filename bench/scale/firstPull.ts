// A first sign-in's pull at national scale: a database of many organisations' clients, each with
// its sub-records, built in SQL (generate_series, not the HTTP seed), and the pull a new device
// of one organisation makes of every client table (GET /api/sync/{table}, pages of the app's
// size, until a page comes back short), as the app's replication does. Used by
// bench/first-pull-scale.bench.ts; importable by the other scale benches.
import pg from 'pg';
import { sampleBody } from '../../schemas/derive/sample';
import { business, profile, profileImage, security, skills, social, type EntityShape } from '../../schemas/index';

/** The client tables a device of an organisation mirrors (the client and its sub-records). */
export const CLIENT_TABLES: readonly EntityShape[] = [profile, skills, social, security, business, profileImage];
/** The app's pull page (src/lib/sync/replication/tablePull.ts DEFAULT_BATCH). */
export const PULL_PAGE = 200;

export interface NationalData {
  /** Clients in the whole database. */
  clients: number;
  /** Organisations sharing them (lookup ids 1..organisations); `organisation` holds `ownClients`. */
  organisations: number;
  organisation: number;
  ownClients: number;
}

type Column = { name: string; type: string };

async function columnsOf(db: pg.Client, table: string): Promise<Column[]> {
  const { rows } = await db.query<{ name: string; type: string }>(
    `SELECT column_name AS name, format_type(a.atttypid, a.atttypmod) AS type
       FROM information_schema.columns c JOIN pg_attribute a ON a.attrelid = $1::regclass AND a.attname = c.column_name
      WHERE c.table_schema = 'public' AND c.table_name = $2`,
    [`"${table}"`, table],
  );
  return rows;
}

/** Client number `i`'s organisation: `organisation` for the first `ownClients`, the others spread. */
function organisationSql(data: NationalData, i: string): string {
  return `CASE WHEN ${i} <= ${data.ownClients} THEN ${data.organisation}
    ELSE 1 + (${i} % ${data.organisations}) + CASE WHEN 1 + (${i} % ${data.organisations}) >= ${data.organisation} THEN 1 ELSE 0 END END`;
}

/**
 * Fills `entity`'s table with one row per client 1..data.clients, from `sampleBody`'s values,
 * keys and times made from the client's number (times spread over a year, so the feed's order
 * is not the key's). Triggers are off (session_replication_role: the bench's superuser), so a
 * sub-record's organisation column, where the tree has one, is written here.
 */
async function fillTable(db: pg.Client, entity: EntityShape, data: NationalData): Promise<void> {
  const columns = await columnsOf(db, entity.table);
  const has = new Set(columns.map((c) => c.name));
  const sample = sampleBody(entity, {});
  const clientKey = `'01900000-0000-7000-8000-' || lpad(i::text, 12, '0')`;
  const special: Record<string, string> = {
    prof_Id: clientKey,
    prof_Reg_No: `'REG-' || lpad(i::text, 8, '0')`,
    location: organisationSql(data, 'i'),
    organisation: organisationSql(data, 'i'),
    img_for: `'photo'`,
    createdAt: `timestamptz '2025-01-01' + (i::bigint * 7919 % 525600) * interval '1 minute'`,
    updatedAt: `timestamptz '2025-01-01' + (i::bigint * 7919 % 525600) * interval '1 minute'`,
    deleted: 'false',
  };
  const names: string[] = [];
  const values: string[] = [];
  const params: unknown[] = [];
  for (const { name, type } of columns) {
    if (special[name] !== undefined && (name !== 'location' || entity === profile)) {
      names.push(name);
      values.push(`(${special[name]})::${type}`);
    } else if (sample[name] !== undefined && sample[name] !== null) {
      const value = sample[name];
      params.push(typeof value === 'object' ? JSON.stringify(value) : value);
      names.push(name);
      values.push(`$${params.length}::${type}`);
    }
  }
  if (!has.has('updatedAt')) throw new Error(`${entity.table}: no updatedAt`);
  await db.query(
    `INSERT INTO "${entity.table}" (${names.map((n) => `"${n}"`).join(', ')})
     SELECT ${values.join(', ')} FROM generate_series(1, ${data.clients}) i`,
    params,
  );
}

/** Builds the national database: the client tables emptied and filled, then analysed. */
export async function buildNationalData(databaseUrl: string, data: NationalData): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('SET session_replication_role = replica');
    await db.query(`TRUNCATE ${CLIENT_TABLES.map((e) => `"${e.table}"`).join(', ')} CASCADE`);
    for (const entity of CLIENT_TABLES) await fillTable(db, entity, data);
    await db.query('SET session_replication_role = origin');
    for (const entity of CLIENT_TABLES) await db.query(`VACUUM ANALYZE "${entity.table}"`);
  } finally {
    await db.end();
  }
}

type Checkpoint = { updatedAt: string; id: string };

export interface FirstPull {
  /** Total time of every pull request (sent to answered, on loopback), ms. */
  totalMs: number;
  /** Per table: requests, rows, ms. */
  tables: Record<string, { requests: number; rows: number; ms: number }>;
}

/**
 * A new device's first pull, as the app makes it: for each client table, pages of PULL_PAGE
 * from no checkpoint until a page comes back short. `token` is the signed-in user's session.
 */
export async function measureFirstPull({
  baseUrl,
  token,
  tables = CLIENT_TABLES,
}: {
  baseUrl: string;
  token: string;
  tables?: readonly EntityShape[];
}): Promise<FirstPull> {
  const result: FirstPull = { totalMs: 0, tables: {} };
  for (const entity of tables) {
    const stats = { requests: 0, rows: 0, ms: 0 };
    let checkpoint: Checkpoint | null = null;
    for (;;) {
      const query = new URLSearchParams({ limit: String(PULL_PAGE), ...(checkpoint ?? {}) });
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/sync/${encodeURIComponent(entity.table)}?${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await response.json()) as { documents: unknown[]; checkpoint: Checkpoint | null };
      stats.ms += performance.now() - started;
      if (response.status !== 200) throw new Error(`pull of ${entity.table}: ${response.status} ${JSON.stringify(body)}`);
      stats.requests += 1;
      stats.rows += body.documents.length;
      checkpoint = body.checkpoint;
      if (body.documents.length < PULL_PAGE) break;
    }
    result.tables[entity.table] = stats;
    result.totalMs += stats.ms;
  }
  return result;
}
