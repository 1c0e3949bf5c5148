// @vitest-environment jsdom
// After a password change every other session ends (docs/security.md): the app keeps its own
// by storing the token the answer carries, so its next request is not refused.
import type { AxiosAdapter } from 'axios';
import { afterEach, describe, expect, it } from 'vitest';
import { changePassword } from '../../src/features/auth';
import { api } from '../../src/lib/http/api';
import { getToken, getUser, saveSession } from '../../src/lib/session/session';

const original = api.defaults.adapter;
afterEach(() => {
  api.defaults.adapter = original;
  localStorage.clear();
});

describe('changePassword', () => {
  it('stores the new token of the answer and keeps the signed-in user', async () => {
    const user = { userId: 'u1', userName: 'amani', role: 4, location: 1, fullName: 'Amani' };
    saveSession(user, 'old-token');
    const sent: { url?: string; auth?: unknown }[] = [];
    const adapter: AxiosAdapter = async (config) => {
      sent.push({ url: config.url, auth: config.headers.get('Authorization') });
      return { data: { message: 'Password changed', token: 'new-token' }, status: 200, statusText: 'OK', headers: {}, config };
    };
    api.defaults.adapter = adapter;
    await expect(changePassword('old-pass-1', 'new-pass-1')).resolves.toBe('Password changed');
    expect(sent).toEqual([{ url: '/users/changepass', auth: 'Bearer old-token' }]);
    expect(getToken()).toBe('new-token');
    expect(getUser()).toMatchObject({ userId: 'u1', userName: 'amani' });
  });
});
