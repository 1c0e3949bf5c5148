// @vitest-environment jsdom
// MoveCaseload (docs/product.md §6.5.1, docs/adr/0017-caseload.md "Role 7 moves a worker's
// caseload"), on a user's page for those who assign: how many clients the worker holds, a
// colleague of the same organisation, what the move adds to that colleague's device, then the
// move, 500 a call until none remain; nothing shown for a worker without clients; a move that
// stops says how many moved. English and French.
import { createElement } from 'react';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { click, render, wait, type Lang, type Rendered } from './render';
import { mockApi, mockedApiViews, type Answer, type Call } from './audit-fixtures';

const toasts = vi.hoisted(() => [] as string[][]);
vi.mock('../../../src/lib/ui/notify', () => ({
  notify: { success: (title: string, text: string) => toasts.push([title, text]), error: () => undefined },
}));

const { MoveCaseload } = await import('../../../src/features/users/MoveCaseload');

const LEAVING = '01900000-0000-7000-8000-0000000000b1';
const COLLEAGUE = '01900000-0000-7000-8000-0000000000b2';
const WORKERS = [
  { userId: LEAVING, name: 'Leaving Worker', location: 2, caseload: true },
  { userId: COLLEAGUE, name: 'Colleague Field', location: 2, caseload: true },
  { userId: 'other-org', name: 'Elsewhere', location: 3, caseload: true },
];
const figures = {
  clients: 10,
  candidates: 10,
  overflow: 0,
  bound: 3000,
  pinned: 0,
  assigned: 10,
  territory: 0,
  outside: 0,
  rows: 60,
  megabytes: 0.1,
};

let calls: Call[] = [];

const mounted = mockedApiViews({
  role: 7,
  reset: () => {
    toasts.length = 0;
  },
});

/** The server: `held` clients assigned to the leaving worker; each move call moves up to 500,
 * or answers `failAt` (a call number) with a network error. */
function server(held: number, failAt?: number) {
  let left = held;
  let moveCalls = 0;
  calls = mockApi((call): Answer | Error => {
    if (call.method === 'get' && call.url === `/caseload/users/${LEAVING}`)
      return { status: 200, data: { caseload: true, figures, assignedClients: left } };
    if (call.method === 'get' && call.url === '/caseload/workers') return { status: 200, data: { workers: WORKERS } };
    if (call.method === 'post' && call.url === '/caseload/preview')
      return {
        status: 200,
        data: { before: figures, after: { ...figures, clients: 10 + held }, added: { clients: held, rows: held * 6, megabytes: 1.5 } },
      };
    if (call.method === 'post' && call.url === '/caseload/move') {
      moveCalls += 1;
      if (moveCalls === failAt) return new Error('offline');
      const moved = Math.min(500, left);
      left -= moved;
      return { status: 200, data: { moved, remaining: left } };
    }
    return { status: 404, data: { message: 'no' } };
  });
}

const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
const moves = () => calls.filter((c) => c.url === '/caseload/move');

async function show(lang: Lang = 'en'): Promise<Rendered> {
  mounted.shown = await render(createElement(MoveCaseload, { userId: LEAVING, name: 'Leaving Worker', location: 2, version: 0 }), lang);
  await wait(20);
  return mounted.shown;
}

/** Opens the dialog and picks the colleague. */
async function chooseColleague(): Promise<void> {
  await click(document.querySelector('[data-testid="move-caseload-open"]') as Element);
  await wait(20);
  const combobox = document.querySelector<HTMLElement>('[data-testid="move-worker"] [role="combobox"]');
  if (!combobox) throw new Error('no worker select');
  await act(async () => {
    combobox.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, button: 0 }));
  });
  const options = Array.from(document.querySelectorAll<HTMLElement>('[role="option"]'));
  // The same organisation's workers, not the leaving one.
  expect(options.map((o) => o.textContent)).toEqual(['Colleague Field']);
  await click(options[0] as Element);
  await wait(20);
}

describe('MoveCaseload', () => {
  it("moves a leaving worker's 505 clients to a colleague after the preview, 500 a call, then reads the count again", async () => {
    server(505);
    await show();
    expect(text('move-caseload-count')).toContain('505 clients are assigned to Leaving Worker.');
    await chooseColleague();
    expect(text('move-preview')).toBe("This adds 505 clients (3,030 records, about 1.5 MB) to Colleague Field's device.");
    expect(calls.find((c) => c.url === '/caseload/preview')?.data).toEqual({ userId: COLLEAGUE, from: LEAVING });
    await click(document.querySelector('[data-testid="move-confirm"]') as Element);
    await wait(300); // the dialog's closing transition
    expect(moves().map((c) => c.data)).toEqual([
      { from: LEAVING, to: COLLEAGUE },
      { from: LEAVING, to: COLLEAGUE },
    ]);
    expect(document.querySelector('[data-testid="move-dialog"]')).toBeNull();
    expect(toasts).toEqual([['Clients moved', '505 clients moved to Colleague Field.']]);
    // Nothing left: the panel goes.
    expect(text('move-caseload')).toBeNull();
  });

  it('says how many moved when the move stops, and keeps the dialog for another try', async () => {
    server(700, 2);
    await show();
    await chooseColleague();
    await click(document.querySelector('[data-testid="move-confirm"]') as Element);
    await wait(50);
    expect(text('move-problem')).toBe(
      '500 clients moved, then the move stopped: The server cannot be reached. Check the connection and try again. Try again to move the others.',
    );
    expect(document.querySelector('[data-testid="move-dialog"]')).not.toBeNull();
  });

  it('shows nothing for a worker who holds no client', async () => {
    server(0);
    await show();
    expect(text('move-caseload')).toBeNull();
  });

  it('speaks French', async () => {
    server(3);
    await show('fr');
    expect(text('move-caseload')).toContain('Confier les clients de cet agent');
    expect(text('move-caseload-count')).toContain('3 clients sont attribués à Leaving Worker.');
  });
});
