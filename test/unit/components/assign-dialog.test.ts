// @vitest-environment jsdom
// "Assign to…" (docs/product.md §6.5.1): the dialog offers the workers of the clients'
// organisation, shows what the assignment adds to the chosen worker's device before it can be
// confirmed, assigns, and reports; a refusal is said by its code in the user's language, the
// dialog staying open; clients of several organisations cannot be assigned together.
import { createElement } from 'react';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { click, render, wait } from './render';
import { mockApi, mockedApiViews, type Call } from './audit-fixtures';

const { AssignDialog } = await import('../../../src/features/clients/AssignDialog');

const WORKERS = [
  { userId: 'w-amani', name: 'Amani Field', location: 2, caseload: true },
  { userId: 'w-office', name: 'Bahati Office', location: 2, caseload: false },
  { userId: 'w-north', name: 'North Worker', location: 3, caseload: true },
];
const CLIENTS = [
  { prof_Id: 'c1', location: 2 },
  { prof_Id: 'c2', location: 2 },
];
const PREVIEW = {
  before: {},
  after: { clients: 12, overflow: 0, bound: 3000, megabytes: 1.2 },
  added: { clients: 2, rows: 9, megabytes: 0.21 },
};

let calls: Call[] = [];

function answer(assign: () => { status: number; data: unknown }) {
  calls = mockApi((call) => {
    if (call.url === '/caseload/preview') {
      const to = (call.data as { userId: string }).userId;
      return { status: 200, data: to === 'w-amani' ? PREVIEW : { ...PREVIEW, after: { ...PREVIEW.after, overflow: 4 } } };
    }
    if (call.url === '/profile/assign') return assign();
    return { status: 404, data: {} };
  });
}

const dialog = () => document.querySelector<HTMLElement>('[data-testid="assign-dialog"]');
const confirm = () => document.querySelector<HTMLButtonElement>('[data-testid="assign-confirm"]');

/** Opens the worker select and picks `name`. */
async function pick(name: string): Promise<void> {
  const combobox = dialog()?.querySelector('[role="combobox"]') as HTMLElement;
  await act(async () => {
    combobox.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, button: 0 }));
  });
  const options = Array.from(document.querySelectorAll<HTMLElement>('[role="option"]'));
  const option = options.find((o) => o.textContent === name);
  if (!option) throw new Error(`no option ${name} in ${options.map((o) => o.textContent).join(', ')}`);
  await click(option);
}

describe('AssignDialog', () => {
  const mounted = mockedApiViews({ role: 5 });

  it("offers the organisation's workers, shows what their device takes before confirming, and assigns", async () => {
    answer(() => ({ status: 200, data: { assigned: 2, unchanged: 0 } }));
    const onAssigned = vi.fn();
    mounted.shown = await render(
      createElement(AssignDialog, { open: true, clients: CLIENTS, workers: WORKERS, onClose: vi.fn(), onAssigned }),
    );
    expect(dialog()?.textContent).toContain('Assign 2 clients');
    expect(confirm()?.disabled).toBe(true); // no worker yet
    const combobox = dialog()?.querySelector('[role="combobox"]') as HTMLElement;
    await act(async () => {
      combobox.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, button: 0 }));
    });
    // Only the clients' organisation's workers.
    expect(Array.from(document.querySelectorAll('[role="option"]')).map((o) => o.textContent)).toEqual(['Amani Field', 'Bahati Office']);
    await click(document.querySelector('[role="option"]') as Element);
    await wait(20);
    expect(dialog()?.querySelector('[data-testid="assign-preview"]')?.textContent).toBe(
      "This adds 2 clients (9 records, about 0.2 MB) to Amani Field's device.",
    );
    expect(calls.map((c) => [c.url, c.data])).toEqual([['/caseload/preview', { userId: 'w-amani', clients: ['c1', 'c2'] }]]);
    expect(confirm()?.disabled).toBe(false);
    await click(confirm() as Element);
    await wait(20);
    expect(calls.at(-1)).toMatchObject({ method: 'post', url: '/profile/assign', data: { clients: ['c1', 'c2'], to: 'w-amani' } });
    expect(onAssigned).toHaveBeenCalledWith({ assigned: 2, unchanged: 0, worker: WORKERS[0] });
  });

  it('says when the bound would leave clients out, and that an office worker’s device does not change', async () => {
    answer(() => ({ status: 200, data: { assigned: 1, unchanged: 0 } }));
    mounted.shown = await render(
      createElement(AssignDialog, { open: true, clients: CLIENTS, workers: WORKERS, onClose: vi.fn(), onAssigned: vi.fn() }),
    );
    await pick('Bahati Office');
    await wait(20);
    expect(dialog()?.querySelector('[data-testid="assign-preview"]')?.textContent).toBe(
      "Bahati Office works on the organisation's clients: their device does not change.",
    );
    expect(dialog()?.querySelector('[data-testid="assign-preview-overflow"]')).toBeNull();
    const field = { ...WORKERS[0], userId: 'w-full', name: 'Full Device' };
    await mounted.shown.rerender(
      createElement(AssignDialog, { open: true, clients: CLIENTS, workers: [field], onClose: vi.fn(), onAssigned: vi.fn() }),
    );
    await pick('Full Device');
    await wait(20);
    expect(dialog()?.querySelector('[data-testid="assign-preview-overflow"]')?.textContent).toBe(
      "Full Device's device keeps at most 3000 clients: 4 clients of their caseload will not be on it (the nearest come first).",
    );
  });

  it('says a refusal by its code in French and stays open; refuses clients of two organisations', async () => {
    answer(() => ({ status: 400, data: { statusCode: 400, code: 'caseload.badAssignee', message: 'server words' } }));
    const onAssigned = vi.fn();
    mounted.shown = await render(
      createElement(AssignDialog, { open: true, clients: CLIENTS, workers: WORKERS, onClose: vi.fn(), onAssigned }),
      'fr',
    );
    await pick('Amani Field');
    await wait(20);
    expect(dialog()?.querySelector('[data-testid="assign-preview"]')?.textContent).toBe(
      "Cela ajoute 2 clients (9 fiches, environ 0,2 Mo) à l'appareil de Amani Field.",
    );
    await click(confirm() as Element);
    await wait(20);
    expect(dialog()?.querySelector('[data-testid="assign-error"]')?.textContent).toBe(
      "Cet agent ne peut pas recevoir de clients (inactif, d'une autre organisation, ou ne travaillant pas avec les clients) : rien n'a été changé.",
    );
    expect(onAssigned).not.toHaveBeenCalled();
    expect(dialog()).not.toBeNull();

    const mixed = [...CLIENTS, { prof_Id: 'c3', location: 3 }];
    await mounted.shown.rerender(
      createElement(AssignDialog, { open: true, clients: mixed, workers: WORKERS, onClose: vi.fn(), onAssigned }),
    );
    await wait(0);
    expect(dialog()?.querySelector('[data-testid="assign-mixed"]')).not.toBeNull();
    expect(confirm()?.disabled).toBe(true);
  });
});
