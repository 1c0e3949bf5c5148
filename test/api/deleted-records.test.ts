// An edit of a record deleted on the server meanwhile (ADR-0023): the single-record PUT and
// the batched upload both answer 404 'This record was deleted on the server' with when, by whom
// and why, to a user who could see the record; a record that never existed stays a plain 404,
// and another organisation learns nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { serviceProvider } from '../../schemas/index';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let t: TestServer;
const deleter = { userName: 'deleter3', password: 'deleter-password-3', role: 3, location: 2, fullName: 'Aline Deleter' };
const editor = { userName: 'editor4', password: 'editor-password-4', role: 4, location: 2 };
const stranger = { userName: 'stranger3', password: 'stranger-password-3', role: 3, location: 3 };
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  await ensureOrganisations(t.server.db);
  for (const user of [deleter, editor, stranger]) {
    await t.createUser(user);
    tokens[user.userName] = await t.login(user.userName, user.password);
  }
});

afterAll(() => t?.close());

async function deletedProvider(reason: string): Promise<{ id: string; updatedAt: string }> {
  const body = sampleBody(serviceProvider);
  const made = await t.api('POST', '/sproviers/', { token: tokens[editor.userName], body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const id = String(body.sp_Id);
  const gone = await t.api('POST', `/sproviers/delete/${id}`, {
    token: tokens[deleter.userName],
    body: { reason, password: deleter.password },
  });
  expect(gone.status, JSON.stringify(gone.body)).toBe(200);
  return { id, updatedAt: String(made.body.updatedAt) };
}

describe('an edit of a record deleted on the server', () => {
  it('PUT answers 404 with when, by whom and why', async () => {
    const before = Date.now();
    const { id, updatedAt } = await deletedProvider('Closed for good');
    const put = await t.api('PUT', `/sproviers/${id}`, { token: tokens[editor.userName], body: { sp_Name: 'Edited offline', updatedAt } });
    expect(put.status).toBe(404);
    expect(put.body).toMatchObject({
      code: 'http.recordDeleted',
      message: 'This record was deleted on the server',
      deleted: { by: 'Aline Deleter', reason: 'Closed for good' },
    });
    expect(Date.parse(put.body.deleted.at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('the batched upload answers the same for that record', async () => {
    const { id, updatedAt } = await deletedProvider('Duplicate of another centre');
    const push = await t.api('POST', `/sync/push/${serviceProvider.table}`, {
      token: tokens[editor.userName],
      body: { records: [{ op: 'update', id, data: { sp_Name: 'Edited offline', updatedAt } }] },
      headers: { 'accept-language': 'fr' },
    });
    expect(push.status).toBe(200);
    const [answer] = push.body.results;
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({
      code: 'http.recordDeleted',
      message: 'Cet enregistrement a été supprimé sur le serveur',
      deleted: { by: 'Aline Deleter', reason: 'Duplicate of another centre' },
    });
  });

  it('tells nothing to another organisation, nor about a record that never existed', async () => {
    const { id } = await deletedProvider('Moved away');
    const other = await t.api('PUT', `/sproviers/${id}`, { token: tokens[stranger.userName], body: { sp_Name: 'Guess' } });
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('http.recordNotFound');
    expect(other.body.deleted).toBeUndefined();
    const never = await t.api('PUT', '/sproviers/01900000-0000-7000-8000-00000000beef', {
      token: tokens[editor.userName],
      body: { sp_Name: 'Nothing' },
    });
    expect(never.status).toBe(404);
    expect(never.body).toMatchObject({ code: 'http.recordNotFound', message: 'No record with this id' });
  });
});
