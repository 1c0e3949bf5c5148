// The server's configuration is read through one table (server/config.ts SETTINGS): every
// variable is checked, a wrong value stops the start with one line naming it, exit code 1.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromEnv, SETTINGS } from '../../server/config';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('configuration', () => {
  it('reads the defaults when nothing is set', () => {
    const config = configFromEnv({});
    expect(config.port).toBe(8080);
    expect(config.tokenTtlSeconds).toBe(43_200);
    expect(config.mapPointsLimit).toBe(20_000);
    expect(config.logLevel).toBe('warn');
  });

  it('reads a good value of each numeric variable', () => {
    const config = configFromEnv({
      PORT: '3000',
      TOKEN_TTL_SECONDS: '3600',
      DB_STATEMENT_TIMEOUT_MS: '20000',
      DB_CONNECT_TIMEOUT_MS: '2000',
      DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '60000',
      MAP_POINTS_LIMIT: '5000',
      CASELOAD_BOUND: '100',
    });
    expect(config).toMatchObject({
      port: 3000,
      tokenTtlSeconds: 3600,
      statementTimeoutMs: 20_000,
      connectTimeoutMs: 2000,
      idleInTransactionTimeoutMs: 60_000,
      mapPointsLimit: 5000,
      caseloadBound: 100,
    });
  });

  it.each([
    ['PORT', 'abc', /^PORT must be a whole number from 0 to 65535, got "abc"$/],
    ['PORT', '70000', /^PORT must be a whole number from 0 to 65535/],
    ['TOKEN_TTL_SECONDS', '-5', /^TOKEN_TTL_SECONDS must be a whole number of seconds from 60 to 2592000/],
    ['DB_STATEMENT_TIMEOUT_MS', '1.5', /^DB_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds from 1/],
    ['DB_CONNECT_TIMEOUT_MS', '0', /^DB_CONNECT_TIMEOUT_MS must be/],
    ['DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', 'soon', /^DB_IDLE_IN_TRANSACTION_TIMEOUT_MS must be/],
    ['MAP_POINTS_LIMIT', 'NaN', /^MAP_POINTS_LIMIT must be a whole number from 1 to 1000000/],
    ['CASELOAD_BOUND', '0', /^CASELOAD_BOUND must be a whole number from 1/],
    ['LOCK_AFTER_MINUTES', '2000', /^LOCK_AFTER_MINUTES must be/],
    ['LOG_LEVEL', 'loud', /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"$/],
  ])('refuses %s=%s with a line naming it', (name, value, message) => {
    expect(() => configFromEnv({ [name]: value })).toThrow(message);
  });

  it('a wrong value stops the server at start: one line on stderr, exit code 1', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: 'abc', DATA_DIR: 'memory://' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe('PORT must be a whole number from 0 to 65535, got "abc"');
  });

  it('the README documents each variable of the table, and no other', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
    const documented = new Set(
      section
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z_]+)`/g)].map((m) => m[1] as string)),
    );
    const read = new Set(Object.values(SETTINGS).flatMap((row) => row.names));
    expect(documented.size).toBeGreaterThan(20);
    expect(
      [...read].filter((name) => !documented.has(name) && !section.includes(`\`${name}`)),
      'read but not in README',
    ).toEqual([]);
    expect(
      [...documented].filter((name) => !read.has(name)),
      'in README but not read',
    ).toEqual([]);
  });
});
