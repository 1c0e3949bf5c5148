// @vitest-environment jsdom
// HistorySection (ADR-0036): folded at first, the first page asked when opened; each entry's
// action, time, who (name and role), the changed fields by their labels with the values before
// and after (lookup labels as on the record's page), names only when the values are not given,
// a sub-record's kind; "Show more" pages on; offline or on failure a short message; live
// refresh on the change stream. In English and in French.
import { act, createElement } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { emitServerChange } from '../../../src/lib/util/events';
import { formatDateTime } from '../../../src/lib/ui/format';
import { click, messages, render, wait, type Lang, type Rendered } from './render';
import { entry, mockApi, mockedApiViews, PROF, type Call } from './audit-fixtures';

const { HistorySection } = await import('../../../src/features/audit');
const { PreferencesProvider } = await import('../../../src/components');

const ROWS = [
  entry({
    id: '01930000-0000-7000-8000-000000000003',
    at: '2026-11-21T14:05:00.000Z',
    action: 'update',
    fields: ['phone', 'territory'],
    changes: { phone: { before: '+243 810 000 001', after: '+243 810 000 002' }, territory: { before: 1, after: 2 } },
  }),
  entry({
    id: '01930000-0000-7000-8000-000000000002',
    at: '2026-11-21T10:00:00.000Z',
    action: 'update',
    entity: 'skills',
    recordId: PROF,
    fields: ['skills', 'educationLevel'],
    changes: null,
    userName: 'bora',
    role: 3,
  }),
  entry({
    id: '01930000-0000-7000-8000-000000000001',
    at: '2026-11-20T09:30:00.000Z',
    deviceAt: '2026-11-19T16:00:00.000Z',
    action: 'create',
    fields: ['firstName', 'lastName'],
    changes: null,
  }),
];

let calls: Call[] = [];

const mounted = mockedApiViews({ role: 1 });

function answerPages(rows = ROWS, pageSize = 2) {
  calls = mockApi((call) => {
    const page = Number(call.params.page);
    return { status: 200, data: { rows: rows.slice((page - 1) * pageSize, page * pageSize), total: rows.length, page, pageSize: 20 } };
  });
}

async function show(lang: Lang = 'en', entity = 'profile', recordId = PROF): Promise<Rendered> {
  const element = createElement(
    MemoryRouter,
    null,
    createElement(PreferencesProvider, null, createElement(HistorySection, { entity, recordId })),
  );
  mounted.shown = await render(element, lang);
  await wait(10);
  return mounted.shown;
}

async function open(view: Rendered): Promise<void> {
  const toggle = view.container.querySelector('[data-testid="history-toggle"]');
  if (!toggle) throw new Error('no history toggle');
  await click(toggle);
  await wait(20);
}

const entries = (view: Rendered) => Array.from(view.container.querySelectorAll<HTMLElement>('[data-testid="history-entry"]'));

describe('HistorySection', () => {
  it('asks nothing until opened, then shows the entries newest first in words', async () => {
    answerPages(ROWS, 20);
    const view = await show();
    expect(view.container.querySelector('[data-testid="history-section"]')?.textContent).toContain('Change history');
    expect(view.container.querySelector('h2')?.textContent).toContain('Change history');
    expect(calls).toEqual([]);
    await open(view);
    expect(calls).toEqual([expect.objectContaining({ method: 'get', url: `/history/profile/${PROF}`, params: { page: 1, pageSize: 20 } })]);
    const [first, second, third] = entries(view);
    expect(entries(view)).toHaveLength(3);
    expect(view.container.querySelector('[data-testid="history-count"]')?.textContent).toBe('(3)');

    // An update with its values: labels from the declarations, lookup labels, before → after.
    expect(first?.getAttribute('data-action')).toBe('update');
    expect(first?.querySelector('[data-testid="history-action"]')?.textContent).toBe('Changed');
    expect(first?.querySelector('[data-testid="history-who"]')?.textContent).toBe(
      `${formatDateTime('2026-11-21T14:05:00.000Z', 'en')} · amani (Case manager)`,
    );
    expect(first?.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-21T14:05:00.000Z');
    const changes = Array.from(first?.querySelectorAll('[data-testid="history-change"]') ?? []).map((li) => [
      li.getAttribute('data-field'),
      li.querySelector('span')?.textContent,
      li.querySelector('[data-testid="history-before"]')?.textContent,
      li.querySelector('[data-testid="history-after"]')?.textContent,
    ]);
    expect(changes).toEqual([
      ['phone', 'Phone', '+243 810 000 001', '+243 810 000 002'],
      ['territory', 'Territory', 'Goma', 'Beni'],
    ]);
    // A sub-record's change without values: its kind and the changed fields' labels only.
    expect(second?.querySelector('[data-testid="history-action"]')?.textContent).toBe('Changed · Skills');
    expect(second?.querySelector('[data-testid="history-who"]')?.textContent).toContain('bora (Field worker)');
    expect(second?.querySelector('[data-testid="history-fields"]')?.textContent).toMatch(/^Changed: .+, .+$/);
    expect(second?.querySelector('[data-testid="history-change"]')).toBeNull();
    // A record made offline: the device's time too.
    expect(third?.querySelector('[data-testid="history-action"]')?.textContent).toBe('Created');
    expect(third?.querySelector('[data-testid="history-who"]')?.textContent).toContain('saved on the device Nov 19, 2026');
    expect(third?.querySelector('[data-testid="history-fields"]')?.textContent).toBe('Filled in: First name, Last name');
  });

  it('speaks French', async () => {
    answerPages(ROWS, 20);
    const view = await show('fr');
    expect(view.container.textContent).toContain('Historique des modifications');
    await open(view);
    const [first, second, third] = entries(view);
    expect(first?.querySelector('[data-testid="history-action"]')?.textContent).toBe('Modification');
    expect(first?.querySelector('[data-testid="history-who"]')?.textContent).toBe(
      `${formatDateTime('2026-11-21T14:05:00.000Z', 'fr')} · amani (${messages.fr['role.4']})`,
    );
    expect(Array.from(first?.querySelectorAll('[data-testid="history-after"]') ?? []).map((s) => s.textContent)).toEqual([
      '+243 810 000 002',
      'Béni',
    ]);
    expect(second?.querySelector('[data-testid="history-action"]')?.textContent).toBe('Modification · Compétences');
    expect(third?.querySelector('[data-testid="history-fields"]')?.textContent).toBe('Renseigné : Prénom, Nom');
  });

  it('pages on with "Show more" and stops at the last entry', async () => {
    answerPages(ROWS, 2);
    const view = await show();
    await open(view);
    expect(entries(view)).toHaveLength(2);
    const more = view.container.querySelector('[data-testid="history-more"]');
    expect(more?.textContent).toBe('Show more (2 of 3)');
    await click(more as Element);
    await wait(20);
    expect(calls.map((c) => c.params.page)).toEqual([1, 2]);
    expect(entries(view)).toHaveLength(3);
    expect(view.container.querySelector('[data-testid="history-more"]')).toBeNull();
  });

  it('asks the pages shown again when the record or the log changes', async () => {
    answerPages(ROWS.slice(1), 20);
    const view = await show();
    await open(view);
    expect(entries(view)).toHaveLength(2);
    answerPages(ROWS, 20);
    await act(async () => emitServerChange('tbl_skills'));
    await wait(1_100);
    expect(calls).toHaveLength(1);
    expect(entries(view)).toHaveLength(3);
    await act(async () => emitServerChange('tbl_serviceprovider')); // not this record's: nothing asked
    await wait(1_100);
    expect(calls).toHaveLength(1);
  });

  it('offline, says the history needs a connection and asks nothing', async () => {
    answerPages();
    localStorage.setItem('mode', 'offline');
    const view = await show();
    await open(view);
    expect(view.container.querySelector('[data-testid="history-offline"]')?.textContent).toContain('needs a connection');
    expect(calls).toEqual([]);
  });

  it('on a failure says so briefly and offers to retry; a record the user may not read has no history', async () => {
    calls = mockApi(() => ({ status: 500, data: { message: 'boom' } }));
    const view = await show();
    await open(view);
    expect(view.container.querySelector('[data-testid="history-failed"]')?.textContent).toContain('could not be read');
    answerPages(ROWS, 20);
    await click(view.container.querySelector('[data-testid="history-failed"] button') as Element);
    await wait(20);
    expect(entries(view)).toHaveLength(3);
    await mounted.shown?.unmount();
    calls = mockApi(() => ({ status: 404, data: { message: 'not found' } }));
    const other = await show('en', 'user', 'u9');
    await open(other);
    expect(calls[0]?.url).toBe('/history/user/u9');
    expect(other.container.querySelector('[data-testid="history-empty"]')?.textContent).toContain('No change recorded');
  });
});
