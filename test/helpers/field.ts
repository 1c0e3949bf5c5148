// A server with the organisations and one field officer (role 3, location 1), signed in, with an
// axios client set up as the app's (JSON by default, English answers): the starting point of the
// data-layer and upload tests.
import axios, { type AxiosInstance } from 'axios';
import type { LookupLists } from '../../src/lib/data';
import type { SessionUser } from '../../src/lib/session/session';
import { ensureOrganisations } from './records';
import { startTestServer, type TestServer } from './server';

export const FIELD_PASSWORD = 'field-password-1';

export interface FieldSetup {
  t: TestServer;
  token: string;
  http: AxiosInstance;
  lists: LookupLists;
  user: SessionUser;
}

export async function startFieldSetup(): Promise<FieldSetup> {
  const t = await startTestServer();
  await ensureOrganisations(t.server.db);
  const { userId } = await t.createUser({ userName: 'field', password: FIELD_PASSWORD, role: 3, location: 1 });
  const token = await t.login('field', FIELD_PASSWORD);
  const http = axios.create({
    baseURL: `${t.url}/api`,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Accept-Language': 'en' },
  });
  const lists = (await http.get<LookupLists>('/lists/profilelist')).data;
  return { t, token, http, lists, user: { userId, userName: 'field', role: 3, location: 1, fullName: 'Test field' } };
}
