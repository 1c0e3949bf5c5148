// A server process of a tree (this one, or a worktree of an older commit) on a fresh PostgreSQL
// database, for the benches that compare two builds in one run (bench/first-pull-scale.bench.ts,
// bench/caseload.bench.ts). Each tree serves with its own code; the processes end with the bench.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureOrganisations } from '../../test/helpers/records';

export const ADMIN_PASSWORD = 'bench-admin-password-1';

/** `adminUrl` (a PostgreSQL server's URL) naming database `name`. */
export const databaseUrl = (adminUrl: string, name: string): string => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** An empty database `name` (dropped first if there). */
export async function freshDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return databaseUrl(adminUrl, name);
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server at ${url} stopped (${child.exitCode})`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server at ${url} did not start`);
}

export async function api(url: string, method: string, apiPath: string, body?: unknown, token?: string) {
  const response = await fetch(`${url}/api${apiPath}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${apiPath}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

export const login = async (url: string, userName: string, password: string): Promise<string> =>
  ((await api(url, 'POST', '/login', { userName, password })).result as { user: { token: string } }).user.token;

const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((child) => child.kill('SIGTERM')));

/** The server of the tree at `dir` on `dbUrl`, at `port`, serving `staticDir` (none: no files). */
export async function spawnServer(
  name: string,
  dir: string,
  port: number,
  dbUrl: string,
  staticDir = path.join(tmpdir(), 'icrs-bench-no-dist'),
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(path.join(dir, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), `icrs-bench-${name}-`)),
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      STATIC_DIR: staticDir,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, child);
  return { url, child };
}

/** The server of the tree at `dir` on a fresh database `dbName` holding the organisations' list. */
export async function spawnOnFreshDatabase(
  adminUrl: string,
  dbName: string,
  server: { name: string; dir: string; port: number; staticDir?: string },
): Promise<{ dbUrl: string; url: string; child: ChildProcess }> {
  const dbUrl = await freshDatabase(adminUrl, dbName);
  const { url, child } = await spawnServer(server.name, server.dir, server.port, dbUrl, server.staticDir);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    await ensureOrganisations(db);
  } finally {
    await db.end();
  }
  return { dbUrl, url, child };
}
