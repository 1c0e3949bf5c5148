// Answer schemas also serialize (fast-json-stringify drops what a schema does not name): the
// answers a device mirrors must keep every column. The pull feed and the by-key pull carry each
// record's every row column and `_deleted`, in the table's order, as the database gave them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowFields } from '../../schemas/define';
import { serverEntities } from '../../schemas/index';
import { seedDemo } from '../../server/seed/demo';
import { startTestServer, type TestServer } from '../helpers/server';

const mirrored = serverEntities.filter((e) => e.offline && e.name !== 'profileImage');

describe('answers keep every column', () => {
  let t: TestServer;
  let admin: string;
  beforeAll(async () => {
    t = await startTestServer();
    admin = await t.login(t.admin.userName, t.admin.password);
    await seedDemo(t.server.db, { scale: 0.02, seed: 5, now: Date.UTC(2025, 0, 1) });
  });
  afterAll(() => t?.close());

  it.each(mirrored.map((e) => [e.table, e] as const))('the pull of %s', async (_table, entity) => {
    const pulled = await t.api('GET', `/sync/${entity.table}?limit=5`, { token: admin });
    expect(pulled.status).toBe(200);
    expect(pulled.body.documents.length).toBeGreaterThan(0);
    const columns = [...rowFields(entity).map(([name]) => name), '_deleted'];
    for (const document of pulled.body.documents) expect(Object.keys(document)).toEqual(columns);
    const [stored] = await t.server.db.query(`SELECT * FROM "${entity.table}" WHERE "${entity.keyFields[0]}" = $1`, [
      pulled.body.documents[0][entity.keyFields[0]],
    ]);
    for (const name of columns.slice(0, -1)) {
      const value = stored[name];
      expect(pulled.body.documents[0][name], name).toEqual(value instanceof Date ? value.toISOString() : value);
    }
    const key = String(pulled.body.documents[0][entity.keyFields[0]]);
    const byKey = await t.api('POST', `/sync/${entity.table}/keys`, { token: admin, body: { keys: [key] } });
    expect(byKey.body.documents).toEqual([pulled.body.documents[0]]);
  });

  it('a batch answers each record with its whole row, as GET does', async () => {
    const jobId = '01900000-0000-7000-8000-0000000000b1';
    const pushed = await t.api('POST', '/sync/push/available-jobs', {
      token: admin,
      body: {
        records: [
          {
            op: 'create',
            data: {
              jb_Id: jobId,
              title: 'Welder',
              employer: 'Atelier',
              sector: 1,
              territory: 1,
              contract: 'permanent',
              positions: 1,
              open: true,
            },
          },
        ],
      },
    });
    expect(pushed.status).toBe(200);
    const [result] = pushed.body.results;
    const read = await t.api('GET', `/jobs/${jobId}`, { token: admin });
    expect(result).toMatchObject({ key: jobId, status: 201 });
    expect(result.body).toEqual(read.body);
  });
});
