// @vitest-environment jsdom
// A client's data handed over or erased (ADR-0036): "Export all data (ZIP)" saves the
// server's ZIP under its name; "Erase this client" asks a reason from the list, an optional
// note and the password, shows the server's wrong-password message and stays open, shows a
// refused note under the note, then erases; the client data requests screen finds clients and
// offers both actions on each.
import { createElement } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { click, helperOf, inputByLabel, render, typeInto, wait } from './render';
import { mockApi, mockedApiViews, PROF, type Call } from './audit-fixtures';

const saved = vi.hoisted(() => [] as { blob: Blob; fileName: string }[]);
vi.mock('../../../src/lib/ui/download', () => ({
  downloadBlob: (blob: Blob, fileName: string) => saved.push({ blob, fileName }),
  downloadText: () => undefined,
  openBlob: () => undefined,
}));

const toasts = vi.hoisted(() => [] as string[][]);
vi.mock('../../../src/lib/ui/notify', () => ({
  notify: {
    success: (title: string, text = '') => toasts.push(['success', title, text]),
    error: (title: string, text = '') => toasts.push(['error', title, text]),
    info: () => undefined,
    warning: () => undefined,
  },
}));

const { ClientDataActions } = await import('../../../src/features/audit');
const { ClientRequestsPage } = await import('../../../src/features/audit/ClientRequestsPage');
const { PreferencesProvider } = await import('../../../src/components');

let calls: Call[] = [];

function answer(password = 'right-pass') {
  calls = mockApi((call) => {
    if (call.url === `/profile/${PROF}/export`)
      return { status: 200, data: new Blob(['PK']), headers: { 'content-disposition': `attachment; filename="client-ESPAB12CD34.zip"` } };
    if (call.url === `/profile/${PROF}/erase`) {
      const body = call.data as { password?: string; note?: string };
      if (body.note?.includes('0812'))
        return {
          status: 400,
          data: {
            statusCode: 400,
            code: 'erase.noteHasClientValue',
            message: "The note holds the client's phone number",
            errors: [{ field: 'note', message: "The note holds the client's phone number" }],
          },
        };
      if (body.password !== password)
        return { status: 400, data: { statusCode: 400, code: 'delete.badPassword', message: 'Wrong password: nothing was deleted' } };
      return { status: 200, data: { result: 'erased', id: PROF } };
    }
    if (call.url === '/audit/clients')
      return { status: 200, data: { rows: [{ profId: PROF, regNo: 'ESPAB12CD34', name: 'Neema Baraka', location: 2 }] } };
    return { status: 404, data: {} };
  });
}

const dialog = () => document.querySelector<HTMLElement>('[data-testid="client-erase-dialog"]');
const confirmButton = () => dialog()?.querySelector<HTMLButtonElement>('button[type="submit"]') ?? null;

describe('ClientDataActions', () => {
  const mounted = mockedApiViews({
    role: 1,
    reset: () => {
      saved.length = 0;
    },
  });

  it('exports the whole client as the ZIP the server names', async () => {
    answer();
    const onErased = vi.fn();
    mounted.shown = await render(createElement(ClientDataActions, { profId: PROF, name: 'Neema Baraka', regNo: 'ESPAB12CD34', onErased }));
    const exportButton = mounted.shown.container.querySelector('[data-testid="client-export"]');
    expect(exportButton?.textContent).toBe('Export all data (ZIP)');
    await click(exportButton as Element);
    await wait(20);
    expect(calls).toEqual([expect.objectContaining({ method: 'get', url: `/profile/${PROF}/export`, responseType: 'blob' })]);
    expect(saved.map((s) => s.fileName)).toEqual(['client-ESPAB12CD34.zip']);
  });

  it('erases with a reason from the list, a note and the password; a wrong password or a note naming the client says so', async () => {
    answer();
    const onErased = vi.fn();
    mounted.shown = await render(createElement(ClientDataActions, { profId: PROF, name: 'Neema Baraka', regNo: 'ESPAB12CD34', onErased }));
    await click(mounted.shown.container.querySelector('[data-testid="client-erase"]') as Element);
    expect(dialog()?.textContent).toContain('Erase Neema Baraka (ESPAB12CD34)?');
    const reason = dialog()?.querySelector<HTMLSelectElement>('[data-testid="client-erase-reason"]') as HTMLSelectElement;
    expect(Array.from(reason.options).map((o) => o.textContent)).toEqual([
      'Choose a reason',
      "The client's request",
      'Consent withdrawn',
      'Duplicate record',
      'Data no longer needed',
      'Legal obligation',
      'Other',
    ]);
    expect(helperOf(document.body, 'Note (optional)')).toContain('no name, phone number, date of birth');
    await typeInto(inputByLabel(document.body, 'Your password') as HTMLInputElement, 'wrong-pass');
    expect(confirmButton()?.disabled).toBe(true); // a reason must be chosen
    await act(async () => {
      reason.value = 'consentWithdrawn';
      reason.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(confirmButton()?.textContent).toBe('Erase');
    expect(confirmButton()?.disabled).toBe(false);
    await click(confirmButton() as Element);
    await wait(20);
    expect(dialog()?.querySelector('[role="alert"]')?.textContent).toContain('Wrong password: nothing was deleted');
    expect(onErased).not.toHaveBeenCalled();
    await typeInto(inputByLabel(document.body, 'Your password') as HTMLInputElement, 'right-pass');
    await typeInto(inputByLabel(document.body, 'Note (optional)'), 'Called from 0812 345 678');
    await click(confirmButton() as Element);
    await wait(20);
    expect(helperOf(document.body, 'Note (optional)')).toBe("The note holds the client's phone number");
    expect(onErased).not.toHaveBeenCalled();
    await typeInto(inputByLabel(document.body, 'Note (optional)'), 'Letter received at the office');
    await click(confirmButton() as Element);
    await wait(20);
    expect(calls.filter((c) => c.method === 'post').map((c) => [c.url, c.data])).toEqual([
      [`/profile/${PROF}/erase`, { reasonCode: 'consentWithdrawn', password: 'wrong-pass' }],
      [`/profile/${PROF}/erase`, { reasonCode: 'consentWithdrawn', note: 'Called from 0812 345 678', password: 'right-pass' }],
      [`/profile/${PROF}/erase`, { reasonCode: 'consentWithdrawn', note: 'Letter received at the office', password: 'right-pass' }],
    ]);
    expect(onErased).toHaveBeenCalledTimes(1);
    expect(toasts).toEqual([['success', 'Client erased', 'The data of Neema Baraka (ESPAB12CD34) was erased.']]);
    await wait(400); // the dialog's closing transition
    expect(dialog()).toBeNull();
  });
});

describe('ClientRequestsPage', () => {
  const mounted = mockedApiViews({ role: 7 });

  it('searches from 2 characters and offers export and erasure on each client found', async () => {
    answer();
    mounted.shown = await render(
      createElement(MemoryRouter, null, createElement(PreferencesProvider, null, createElement(ClientRequestsPage))),
      'fr',
    );
    expect(mounted.shown.container.querySelector('h1')?.textContent).toBe('Demandes sur les données des clients');
    const search = mounted.shown.container.querySelector('[data-testid="audit-clients-search"]') as HTMLInputElement;
    await typeInto(search, 'N');
    await wait(500);
    expect(calls).toEqual([]);
    await typeInto(search, 'Neema');
    await wait(500);
    expect(calls.map((c) => [c.url, c.params])).toEqual([['/audit/clients', { q: 'Neema' }]]);
    const rows = Array.from(mounted.shown.container.querySelectorAll<HTMLElement>('[data-testid="audit-client-row"]'));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.textContent).toContain('Neema Baraka');
    expect(rows[0]?.querySelector('[data-testid="audit-client-regno"]')?.textContent).toBe('ESPAB12CD34');
    expect(rows[0]?.textContent).toContain('Espoir RDC');
    expect(rows[0]?.querySelector('[data-testid="client-export"]')?.textContent).toBe('Exporter toutes les données (ZIP)');
    expect(rows[0]?.querySelector('[data-testid="client-erase"]')?.textContent).toBe('Effacer ce client');
  });
});
