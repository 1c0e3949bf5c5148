// Clients' personal data never reaches the server's log (ADR-0009 "Query strings are cut from logged URLs"): a database
// error quoting a row's values is logged with where it happened only, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/db';
import { startTestServer, type TestServer } from '../helpers/server';

const SECRET_NAME = 'Mukamana-Privée';

describe.each(backends)('the log keeps database errors without their values on %s', (backend) => {
  let t: TestServer;
  const log: string[] = [];

  beforeAll(async () => {
    // One role: the probe table is made by the server's own connection.
    t = await startTestServer({ backend, roles: 'one', config: { logLevel: 'info' }, logStream: { write: (line) => log.push(line) } });
    await t.server.db.query('CREATE TABLE privacy_probe (name text UNIQUE, born date)');
  });
  afterAll(() => t?.close());

  async function failure(sql: string, params: unknown[]): Promise<Error> {
    return t.server.db.query(sql, params).then(
      () => {
        throw new Error('the statement should have failed');
      },
      (error: unknown) => error as Error,
    );
  }

  it('a unique violation (its detail names the value) is logged with its constraint only', async () => {
    await t.server.db.query('INSERT INTO privacy_probe (name) VALUES ($1)', [SECRET_NAME]);
    const error = await failure('INSERT INTO privacy_probe (name) VALUES ($1)', [SECRET_NAME]);
    expect(JSON.stringify({ detail: (error as { detail?: string }).detail, message: error.message })).toContain(SECRET_NAME);

    t.server.app.log.error({ err: error }, 'unhandled error');
    const line = log.at(-1) ?? '';
    expect(line).toContain('"code":"23505"');
    expect(line).toContain('privacy_probe_name_key');
    expect(line).not.toContain(SECRET_NAME);
  });

  it('a data exception quoting the bad value is logged without it', async () => {
    const error = await failure('INSERT INTO privacy_probe (born) VALUES ($1)', [`${SECRET_NAME} 1990`]);
    expect(error.message).toContain(SECRET_NAME);
    t.server.app.log.error({ err: error }, 'unhandled error');
    const line = log.at(-1) ?? '';
    expect(line).toMatch(/"code":"22/);
    expect(line).not.toContain(SECRET_NAME);
  });

  it('other errors keep their message and stack', () => {
    t.server.app.log.error({ err: new Error('disk full') }, 'unhandled error');
    expect(JSON.parse(log.at(-1) ?? '{}')).toMatchObject({
      err: { type: 'Error', message: 'disk full', stack: expect.stringContaining('disk full') },
    });
  });
});
