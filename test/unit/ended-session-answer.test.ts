// @vitest-environment jsdom
// A request that left before the lock button (or the idle lock) ended its session may come back
// refused after the lock: that answer is about a session the tab has left, and must not sign the
// user out, or the lock screen would never show and the device could not be opened offline
// (docs/security.md "Shared and lost devices").
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/lib/http/api';
import { getToken, getUser, saveSession, setToken } from '../../src/lib/session/session';

const original = api.defaults.adapter;
afterEach(() => {
  api.defaults.adapter = original;
  localStorage.clear();
  sessionStorage.clear();
  vi.useRealTimers();
});

const user = { userId: 'u1', userName: 'amani', role: 3, location: 2, fullName: 'Amani' };

/** An adapter that holds each request until `answer` is called, then refuses it with `code`. */
function heldRefusal() {
  const held: { config: InternalAxiosRequestConfig; release: () => void }[] = [];
  const adapter: AxiosAdapter = (config) =>
    new Promise((_resolve, reject) => {
      held.push({
        config,
        release: () =>
          reject(
            Object.assign(new Error('Request failed with status code 401'), {
              isAxiosError: true,
              config,
              response: {
                status: 401,
                statusText: 'Unauthorized',
                headers: {},
                config,
                data: { statusCode: 401, code: 'auth.signedOut', message: 'This session was signed out. Please sign in again.' },
              },
            }),
          ),
      });
    });
  return { adapter, held };
}

/** A pull sent with `token` that the server refuses (401) once `meanwhile` has run. */
async function pullRefusedAfter(token: string, meanwhile: () => void): Promise<void> {
  vi.useFakeTimers({ toFake: ['setTimeout'] });
  saveSession(user, token);
  const { adapter, held } = heldRefusal();
  api.defaults.adapter = adapter;
  const pull = api.get('/sync/pull/tbl_profiles', { silent: true });
  await vi.waitFor(() => expect(held).toHaveLength(1));
  meanwhile();
  held[0]!.release();
  await expect(pull).rejects.toMatchObject({ response: { status: 401 } });
}

describe('a 401 to a request', () => {
  it('sent with a token the tab has since dropped (a lock) leaves the user signed in', async () => {
    // The lock: the token leaves the tab, the user stays for the lock screen.
    await pullRefusedAfter('token-before-the-lock', () => setToken(null));
    expect(getUser()).toMatchObject({ userId: 'u1' });
  });

  it('sent with the token the tab still holds signs the user out', async () => {
    await pullRefusedAfter('current-token', () => undefined);
    expect(getUser()).toBeNull();
    expect(getToken()).toBeNull();
  });
});
