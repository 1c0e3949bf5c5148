// Configuration from the environment (README "Configuration"). One place reads process.env.
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Folder of the embedded database (PGlite); `memory://` keeps it in memory (tests). */
  dataDir: string;
  /** A PostgreSQL server instead of the embedded database. */
  databaseUrl?: string;
  /** Signs session tokens. When unset, a random secret is made once and kept in the database. */
  jwtSecret?: string;
  /** How long a session token lives, in seconds. */
  tokenTtlSeconds: number;
  adminUserName: string;
  adminPassword?: string;
  /** Folder of the built front end; null serves the API only. */
  staticDir: string | null;
  logLevel: string;
  /** MapLibre style the built app uses instead of OpenStreetMap's tiles; its origin is allowed by
   * the Content-Security-Policy. The build reads the same address as VITE_MAP_STYLE_URL. */
  mapStyleUrl?: string;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: env.DATA_DIR ?? './data',
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    tokenTtlSeconds: Number(env.TOKEN_TTL_SECONDS ?? 12 * 3600),
    adminUserName: env.ADMIN_USERNAME || 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    staticDir: path.resolve(env.STATIC_DIR ?? 'dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    mapStyleUrl: env.MAP_STYLE_URL || env.VITE_MAP_STYLE_URL || undefined,
  };
}
