// A real server for a test file: fresh database (in-memory PGlite or a scratch PostgreSQL
// database), a known administrator, and the built app when dist/ exists.
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp, type Server } from '../../server/app';
import { configFromEnv, type Config } from '../../server/config';
import { createScratchDatabase, defaultRoles, queryAs, type Backend, type Roles } from './db';
import { pgliteImage } from './pgliteImage';

export interface TestUser {
  userName: string;
  password: string;
  role: number;
  location?: number;
  fullName?: string;
  mustChangePassword?: boolean;
}

export interface TestServer {
  url: string;
  backend: Backend;
  config: Config;
  server: Server;
  /** One statement as the tables' owner: DATABASE_OWNER_URL's role with two roles, else the
   * server's own connection (PGlite, or PostgreSQL with one role). */
  asOwner<T extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  admin: { userName: string; password: string };
  login(userName: string, password: string): Promise<string>;
  /** The change stream's address for the session of `token`, with a fresh single-use ticket. */
  streamUrl(token: string): Promise<string>;
  createUser(user: TestUser): Promise<{ userId: string }>;
  /** A user of `user.role` without an organisation, as accounts made before roles 3-7 needed
   * one (ADR-0007) still are: the API refuses to make one, so it is moved in the database. */
  createUserWithoutOrganisation(user: Omit<TestUser, 'location'>): Promise<{ userId: string }>;
  /** fetch against the API with JSON in and out; `token` adds the bearer header. */
  api(
    method: string,
    apiPath: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  close(): Promise<void>;
}

export const ADMIN = { userName: 'admin', password: 'admin-password-1' };

export async function startTestServer(
  options: {
    backend?: Backend;
    config?: Partial<Config>;
    logStream?: { write(line: string): void };
    roles?: Roles;
    /** BuildOptions.sessionKeepMs (a bench compares). */
    sessionKeepMs?: number;
  } = {},
): Promise<TestServer> {
  const backend = options.backend ?? 'pglite';
  const scratch = backend === 'postgres' ? await createScratchDatabase({ roles: options.roles ?? defaultRoles }) : undefined;
  const config: Config = {
    ...configFromEnv({}),
    port: 0,
    host: '127.0.0.1',
    dataDir: 'memory://',
    databaseUrl: scratch?.url,
    databaseOwnerUrl: scratch?.ownerUrl,
    jwtSecret: 'test-secret-for-this-file-at-least-32-bytes',
    adminUserName: ADMIN.userName,
    adminPassword: ADMIN.password,
    staticDir: path.resolve('dist'),
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...options.config,
  };
  const server = await buildApp(config, {
    logStream: options.logStream,
    sessionKeepMs: options.sessionKeepMs,
    // A database in memory starts migrated; one on disk (a test's own folder) starts as the
    // server would.
    pgliteImage: config.dataDir === 'memory://' && !config.databaseUrl ? pgliteImage() : undefined,
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;

  const api: TestServer['api'] = async (method, apiPath, { token, body, headers } = {}) => {
    const response = await fetch(`${url}/api${apiPath}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'accept-language': 'en',
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: response.status, body: parsed };
  };

  const login = async (userName: string, password: string) => {
    const { status, body } = await api('POST', '/login', { body: { userName, password } });
    if (status !== 200) throw new Error(`login of ${userName} failed: ${status} ${JSON.stringify(body)}`);
    return body.result.user.token as string;
  };

  let adminToken: string | undefined;
  const createUser: TestServer['createUser'] = async (user) => {
    adminToken ??= await login(ADMIN.userName, ADMIN.password);
    const { status, body } = await api('POST', '/users/', { token: adminToken, body: { fullName: `Test ${user.userName}`, ...user } });
    if (status !== 201) throw new Error(`creating ${user.userName} failed: ${status} ${JSON.stringify(body)}`);
    return { userId: body.userId as string };
  };
  const ownerUrl = scratch?.ownerUrl;
  return {
    url,
    backend,
    config,
    server,
    asOwner: <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
      ownerUrl ? queryAs<T>(ownerUrl, sql, params) : server.db.query<T>(sql, params),
    admin: ADMIN,
    api,
    login,
    createUser,
    async streamUrl(token) {
      const { status, body } = await api('POST', '/sync/ticket', { token });
      if (status !== 200) throw new Error(`no stream ticket: ${status} ${JSON.stringify(body)}`);
      return `${url}/api/sync/stream?ticket=${encodeURIComponent(body.ticket as string)}`;
    },
    async createUserWithoutOrganisation(user) {
      const created = await createUser({ ...user, location: 1 });
      await server.db.query('UPDATE "users" SET "location" = 0 WHERE "userId" = $1', [created.userId]);
      server.users.forgetAll();
      return created;
    },
    async close() {
      await server.app.close();
      await scratch?.drop();
    },
  };
}
