// @vitest-environment jsdom
// The audit screen (ADR-0036): the server's pages with when, who, role, organisation, action,
// record (linked to its page) and the changed fields; the filters sent as the API's parameters
// (organisation for role 1 only); the CSV asked from the server with the same filters; live
// reloads on the audit_log stream; the phone list below 600 px. Also the words of every action
// in both languages and the record links.
import { act, createElement } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { mediaQueryList, width } from '../../helpers/media';
import { emitServerChange } from '../../../src/lib/util/events';
import { actionKey } from '../../../src/features/audit/describe';
import { recordPath } from '../../../src/features/audit/recordLink';
import { AUDIT_ACTIONS } from '../../../src/features/audit/types';
import { click, messages, render, typeInto, wait, type Lang, type Rendered } from './render';
import { entry, mockApi, mockedApiViews, PROF, signIn, type Call } from './audit-fixtures';

const saved = vi.hoisted(() => [] as { blob: Blob; fileName: string }[]);
vi.mock('../../../src/lib/ui/download', () => ({
  downloadBlob: (blob: Blob, fileName: string) => saved.push({ blob, fileName }),
  downloadText: () => undefined,
  openBlob: () => undefined,
}));

const { auditArea } = await import('../../../src/features/audit/area');
const { AuditPage } = await import('../../../src/features/audit/AuditPage');
const { PreferencesProvider } = await import('../../../src/components');

width.narrow = false;

const ROWS = [
  entry({
    id: 'e3',
    at: '2026-11-21T14:05:00.000Z',
    action: 'update',
    entity: 'profile',
    fields: ['phone', 'territory'],
    changes: { phone: { before: '1', after: '2' } },
  }),
  entry({
    id: 'e2',
    at: '2026-11-21T10:00:00.000Z',
    action: 'delete',
    entity: 'service',
    recordId: 's1',
    clientId: null,
    fields: [],
    note: 'Closed for good',
    userName: 'bora',
    role: 7,
    location: 3,
    userLocation: 3,
  }),
  entry({
    id: 'e1',
    at: '2026-11-20T09:30:00.000Z',
    action: 'signin.failed',
    entity: null,
    recordId: null,
    clientId: null,
    userName: null,
    role: null,
    location: null,
    userLocation: null,
  }),
];

let calls: Call[] = [];

function answer(rows = ROWS) {
  calls = mockApi((call) => {
    if (call.url === '/users/all')
      return {
        status: 200,
        data: [
          { userId: 'u1', userName: 'amani', fullName: 'Amani K.' },
          { userId: 'u2', userName: 'bora' },
        ],
      };
    if (call.url === '/audit/csv')
      return {
        status: 200,
        data: new Blob(['when;user\n']),
        headers: { 'content-disposition': 'attachment; filename="audit-2026-11-21.csv"' },
      };
    return { status: 200, data: { rows, total: 60, page: Number(call.params.page), pageSize: Number(call.params.pageSize) } };
  });
}

const auditCalls = () => calls.filter((c) => c.url === '/audit');

const mounted = mockedApiViews({
  reset: () => {
    saved.length = 0;
    width.narrow = false;
    window.matchMedia = mediaQueryList;
  },
});

async function show(lang: Lang = 'en'): Promise<Rendered> {
  const element = createElement(MemoryRouter, null, createElement(PreferencesProvider, null, createElement(AuditPage)));
  mounted.shown = await render(element, lang);
  for (
    let waited = 0;
    !mounted.shown.container.querySelector('[role="grid"] [role="row"][data-id], .MuiDataGrid-row') && waited < 10_000;
    waited += 20
  )
    await wait(20);
  await wait(20);
  return mounted.shown;
}

async function choose(view: Rendered, testId: string, label: string): Promise<void> {
  const combo = view.container.querySelector(`[data-testid="${testId}"] [role="combobox"]`);
  if (!combo) throw new Error(`no select ${testId}`);
  await click(combo);
  const option = Array.from(document.querySelectorAll<HTMLElement>('[role="option"]')).find((o) => o.textContent === label);
  if (!option)
    throw new Error(
      `no option ${label} in ${Array.from(document.querySelectorAll('[role="option"]'))
        .map((o) => o.textContent)
        .join('|')}`,
    );
  await click(option);
  await wait(20);
}

describe('the audit screen', () => {
  it('is two routes: the log (audit.read) and the client data requests (clients.handover)', () => {
    expect(auditArea.screens.map((r) => [r.path ?? '', r.permission])).toEqual([
      ['', 'audit.read'],
      ['clients', 'clients.handover'],
    ]);
  });

  it('shows the server page in words, with the record linked to its page', async () => {
    signIn(1);
    answer();
    const view = await show();
    expect(auditCalls()[0]?.params).toEqual({ page: 1, pageSize: 25 });
    expect(view.container.querySelector('h1')?.textContent).toBe('Audit log');
    const headers = Array.from(view.container.querySelectorAll('[role="columnheader"]')).map((h) => h.textContent);
    expect(headers).toEqual(expect.arrayContaining(['When', 'User', 'Role', 'Organisation', 'Action', 'Record', 'Changed fields']));
    const text = view.container.querySelector('[data-testid="audit-grid"]')?.textContent ?? '';
    for (const words of [
      'amani',
      'Case manager',
      'Espoir DRC',
      'Changed',
      'Client',
      'Phone, Territory',
      'Deleted',
      'Service',
      'Closed for good',
      'North Aid',
      'Organisation administrator',
      'Failed sign-in',
      'The system',
    ]) {
      expect(text).toContain(words);
    }
    const links = Array.from(view.container.querySelectorAll('[data-testid="audit-record-link"]')).map((a) => a.getAttribute('href'));
    expect(links).toEqual([`/profiles/${PROF}`, '/serviceproviders/services/s1']);
    expect(view.container.querySelector('[data-testid="audit-clients-link"]')?.getAttribute('href')).toBe('/audit/clients');
  });

  it('sends the filters as the API parameters, back at the first page, and the CSV with the same ones', async () => {
    signIn(1);
    answer();
    const view = await show();
    await choose(view, 'audit-filter-action', 'Deleted');
    await choose(view, 'audit-filter-entity', 'Service');
    await choose(view, 'audit-filter-location', 'North Aid');
    await choose(view, 'audit-filter-user', 'Amani K.');
    await typeInto(view.container.querySelector('[data-testid="audit-filter-dateFrom"]') as HTMLInputElement, '01/11/2026');
    await typeInto(view.container.querySelector('[data-testid="audit-filter-dateTo"]') as HTMLInputElement, '30/11/2026');
    const filters = { action: 'delete', entity: 'service', location: 3, userId: 'u1', dateFrom: '2026-11-01', dateTo: '2026-11-30' };
    await vi.waitFor(() => expect(auditCalls().at(-1)?.params).toEqual({ ...filters, page: 1, pageSize: 25 }));
    await click(view.container.querySelector('[data-testid="audit-csv"]') as Element);
    await vi.waitFor(() => expect(saved.map((s) => s.fileName)).toEqual(['audit-2026-11-21.csv']));
    const csv = calls.find((c) => c.url === '/audit/csv');
    expect(csv).toMatchObject({ method: 'get', params: filters, responseType: 'blob' });
    // Clearing the filters asks the whole log again.
    await click(view.container.querySelector('[data-testid="audit-clear-filters"]') as Element);
    await vi.waitFor(() => expect(auditCalls().at(-1)?.params).toEqual({ page: 1, pageSize: 25 }));
  });

  it('offers no organisation filter to role 7 (the server holds it to its own)', async () => {
    signIn(7);
    answer();
    const view = await show();
    expect(view.container.querySelector('[data-testid="audit-filter-location"]')).toBeNull();
    expect(view.container.querySelector('[data-testid="audit-own-organisation"]')?.textContent).toBe('Organisation: Espoir DRC');
    expect(view.container.querySelector('[data-testid="audit-filter-user"]')).not.toBeNull();
    // Role 7 opens no client page: the client's entry is not linked.
    expect(Array.from(view.container.querySelectorAll('[data-testid="audit-record-link"]')).map((a) => a.getAttribute('href'))).toEqual([
      '/serviceproviders/services/s1',
    ]);
  });

  it('reloads the page shown when the log grows', async () => {
    signIn(1);
    answer();
    await show();
    const before = auditCalls().length;
    await act(async () => emitServerChange('audit_log'));
    await vi.waitFor(() => expect(auditCalls().length).toBe(before + 1));
  });

  it('fits a phone: the phone list with the time and the entry in a few lines', async () => {
    signIn(1);
    width.narrow = true;
    answer();
    const view = await show('fr');
    expect(Array.from(view.container.querySelectorAll('[role="columnheader"]')).map((h) => h.textContent)).toEqual(['Quand', 'Entrée']);
    const rows = Array.from(view.container.querySelectorAll<HTMLElement>('[role="row"][data-id]'));
    expect(rows.map((r) => r.getAttribute('data-id'))).toEqual(['e3', 'e2', 'e1']);
    expect(rows[1]?.textContent).toContain('Suppression');
    expect(rows[1]?.textContent).toContain('Closed for good');
  });
});

describe('audit words and links', () => {
  it('name every action in both languages', () => {
    for (const lang of ['en', 'fr'] as const) {
      for (const action of AUDIT_ACTIONS) expect(messages[lang][actionKey(action)], `${lang} ${action}`).toBeTruthy();
    }
    expect(actionKey('signin.failed')).toBe('audit.action.signinFailed');
    expect(actionKey('image.add')).toBe('audit.action.imageAdd');
  });

  it("link a record to its page when the role may open it, a client's sub-record to the client", () => {
    expect(recordPath({ entity: 'skills', recordId: PROF, clientId: PROF }, 1)).toBe(`/profiles/${PROF}`);
    expect(recordPath({ entity: 'profile', recordId: PROF, clientId: PROF }, 7)).toBeNull();
    expect(recordPath({ entity: 'jobReferral', recordId: 'j1', clientId: PROF }, 4)).toBe('/referral/job/j1');
    expect(recordPath({ entity: 'user', recordId: 'u1', clientId: null }, 4)).toBeNull();
    expect(recordPath({ entity: 'user', recordId: 'u1', clientId: null }, 7)).toBe('/users/edit/u1');
    expect(recordPath({ entity: null, recordId: null, clientId: null }, 1)).toBeNull();
  });
});
