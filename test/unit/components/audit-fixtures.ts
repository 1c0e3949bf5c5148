// Shared by the component tests that talk to the API: entries as the server contract gives
// them, an axios adapter answering the routes, a signed-in user, and the lifecycle around them.
import { afterEach, beforeEach } from 'vitest';
import type { AxiosAdapter, AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import { AxiosError, AxiosHeaders } from 'axios';
import type { AuditEntry } from '../../../src/features/audit/types';
import { api } from '../../../src/lib/http/api';
import { LISTS_KEY } from '../../../src/lib/data/lists';
import type { Rendered } from './render';

export const PROF = '01900000-0000-7000-8000-0000000000c1';

export const LISTS = {
  organisation: [
    { id: 2, fr: 'Espoir RDC', en: 'Espoir DRC', active: true, abbr: 'ESP' },
    { id: 3, fr: 'Aide Nord', en: 'North Aid', active: true, abbr: 'AN' },
  ],
  territory: [
    { id: 1, fr: 'Goma', en: 'Goma', active: true },
    { id: 2, fr: 'Béni', en: 'Beni', active: true },
  ],
};

export function entry(over: Partial<AuditEntry>): AuditEntry {
  return {
    id: '01930000-0000-7000-8000-000000000001',
    at: '2026-11-20T09:30:00.000Z',
    deviceAt: null,
    userId: 'u1',
    userName: 'amani',
    role: 4,
    userLocation: 2,
    location: 2,
    action: 'update',
    entity: 'profile',
    recordId: PROF,
    clientId: PROF,
    fields: [],
    changes: null,
    note: null,
    ...over,
  };
}

export interface Call {
  method: string;
  url: string;
  params: Record<string, unknown>;
  data: unknown;
  responseType?: string;
}

export type Answer = { status: number; data: unknown; headers?: Record<string, string> } | Error;

/** Routes the API's requests to `answer`; records each call. */
export function mockApi(answer: (call: Call) => Answer | Promise<Answer>): Call[] {
  const calls: Call[] = [];
  const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
    const call: Call = {
      method: (config.method ?? 'get').toLowerCase(),
      url: config.url ?? '',
      params: { ...(config.params as Record<string, unknown> | undefined) },
      data: typeof config.data === 'string' ? (JSON.parse(config.data) as unknown) : config.data,
      responseType: config.responseType,
    };
    calls.push(call);
    const result = await answer(call);
    if (result instanceof Error) throw new AxiosError(result.message, 'ERR_NETWORK', config);
    const response: AxiosResponse = {
      data: result.data,
      status: result.status,
      statusText: String(result.status),
      headers: new AxiosHeaders(result.headers ?? {}),
      config,
    };
    if (result.status >= 400)
      throw new AxiosError(`Request failed with status code ${result.status}`, 'ERR_BAD_RESPONSE', config, null, response);
    return response;
  };
  api.defaults.adapter = adapter;
  return calls;
}

export function signIn(role: number, location = 2): void {
  localStorage.setItem('user', JSON.stringify({ userId: 'me', userName: 'admin', role, location }));
  localStorage.setItem('token', 'x.eyJzdWIiOiJtZSJ9.y');
  localStorage.setItem(LISTS_KEY, JSON.stringify(LISTS));
}

/**
 * Registers the lifecycle of component tests whose API answers come from mockApi: before each
 * test an empty localStorage, then `reset` (the file's own captures) and, given a `role`, that
 * user signed in; after each, the view kept in `shown` unmounted, axios's own adapter back and
 * the page emptied (dialogs and menus render outside the view).
 */
export function mockedApiViews(options: { role?: number; reset?: () => void } = {}): { shown: Rendered | undefined } {
  const original = api.defaults.adapter;
  const mounted: { shown: Rendered | undefined } = { shown: undefined };
  beforeEach(() => {
    localStorage.clear();
    options.reset?.();
    if (options.role !== undefined) signIn(options.role);
  });
  afterEach(async () => {
    await mounted.shown?.unmount();
    mounted.shown = undefined;
    api.defaults.adapter = original;
    document.body.innerHTML = '';
  });
  return mounted;
}
