// @vitest-environment jsdom
// DeviceCaseload (docs/product.md §6.5.1), on the user's page for those who assign clients: a
// field worker's device figures (clients, rows, MB, the bound's overflow), nothing for a user
// without a caseload, and, while the form holds other territories than the saved ones, what the
// change adds or removes, asked once the editing pauses; failures said in words. English and
// French.
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { render, wait, type Lang, type Rendered } from './render';
import { mockApi, mockedApiViews, type Answer, type Call } from './audit-fixtures';

const { DeviceCaseload, PREVIEW_DELAY_MS, sameTerritories } = await import('../../../src/features/users/DeviceCaseload');

const USER = '01900000-0000-7000-8000-0000000000a3';
const figures = (over: Record<string, number> = {}) => ({
  clients: 120,
  candidates: 120,
  overflow: 0,
  bound: 3000,
  pinned: 2,
  assigned: 100,
  territory: 18,
  outside: 880,
  rows: 1450,
  megabytes: 2.5,
  ...over,
});

let calls: Call[] = [];

const mounted = mockedApiViews({ role: 7 });

function answer(status: { caseload: boolean; figures: ReturnType<typeof figures> }, preview?: (call: Call) => Answer) {
  calls = mockApi((call) => {
    if (call.method === 'get' && call.url === `/caseload/users/${USER}`) return { status: 200, data: status };
    if (call.method === 'post' && call.url === '/caseload/preview' && preview) return preview(call);
    return { status: 404, data: { message: 'no' } };
  });
}

const props = (proposed: number[], saved = [1], version = 0) => ({ userId: USER, saved, proposed, version });
async function show(proposed: number[], lang: Lang = 'en'): Promise<Rendered> {
  mounted.shown = await render(createElement(DeviceCaseload, props(proposed)), lang);
  await wait(10);
  return mounted.shown;
}
const text = (view: Rendered, id: string) => view.container.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
const previews = () => calls.filter((c) => c.url === '/caseload/preview');

describe('DeviceCaseload', () => {
  it("shows a field worker's device figures, and asks no preview while the territories are the saved ones", async () => {
    answer({ caseload: true, figures: figures() });
    const view = await show([1]);
    expect(text(view, 'device-caseload')).toContain("On this field worker's device");
    expect(text(view, 'caseload-figures')).toContain('120 clients, 1,450 records, about 2.5 MB');
    expect(text(view, 'caseload-figures')).toContain('Kept by hand: 2 · assigned: 100 · of their territories: 18');
    expect(text(view, 'caseload-figures-overflow')).toBeNull();
    await wait(PREVIEW_DELAY_MS + 50);
    expect(previews()).toEqual([]);
    expect(text(view, 'caseload-preview')).toBeNull();
  });

  it('says what the bound leaves out', async () => {
    answer({ caseload: true, figures: figures({ clients: 3000, candidates: 3400, overflow: 400 }) });
    const view = await show([1]);
    expect(text(view, 'caseload-figures-overflow')).toBe(
      '400 clients of the caseload are not on the device: it holds at most 3,000. Assign fewer clients or narrow the territories.',
    );
  });

  it('shows nothing for a user whose devices keep their organisation (no caseload)', async () => {
    answer({ caseload: false, figures: figures({ clients: 0 }) });
    const view = await show([1, 2]);
    await wait(PREVIEW_DELAY_MS + 50);
    expect(text(view, 'device-caseload')).toBeNull();
    expect(previews()).toEqual([]);
  });

  it('previews a territory change once the editing pauses: what it adds, then what removing every territory takes away', async () => {
    answer({ caseload: true, figures: figures() }, (call) => {
      const territories = (call.data as { territories: number[] }).territories;
      const added = territories.length ? { clients: 40, rows: 500, megabytes: 0.9 } : { clients: -18, rows: -200, megabytes: -0.4 };
      const after = figures({ clients: 120 + added.clients, megabytes: 2.5 + added.megabytes });
      return { status: 200, data: { before: figures(), after, added } };
    });
    const view = await show([1, 2]);
    // Not asked at once: one request per pause, not per keystroke.
    expect(previews()).toEqual([]);
    expect(text(view, 'device-caseload')).toContain('If you save these territories');
    await wait(PREVIEW_DELAY_MS + 50);
    expect(previews()).toEqual([expect.objectContaining({ data: { userId: USER, territories: [1, 2] } })]);
    expect(text(view, 'caseload-preview')).toBe(
      'The device gets 40 clients more (500 records, about 0.9 MB).After the change: 160 clients, about 3.4 MB.',
    );
    await mounted.shown?.rerender(createElement(DeviceCaseload, props([])));
    await wait(PREVIEW_DELAY_MS + 50);
    expect(previews().at(-1)?.data).toEqual({ userId: USER, territories: [] });
    expect(text(view, 'caseload-preview')).toContain('The device loses 18 clients (200 records, about 0.4 MB) at its next sync.');
    // Back to the saved territories: no preview.
    await mounted.shown?.rerender(createElement(DeviceCaseload, props([1])));
    expect(text(view, 'caseload-preview')).toBeNull();
  });

  it('says in words when the figures cannot be read', async () => {
    calls = mockApi(() => new Error('offline'));
    const view = await show([1]);
    expect(text(view, 'device-caseload')).toContain('The server cannot be reached. Check the connection and try again.');
  });

  it('speaks French', async () => {
    answer({ caseload: true, figures: figures({ clients: 3000, candidates: 3001, overflow: 1 }) }, () => ({
      status: 200,
      data: { before: figures(), after: figures({ clients: 125 }), added: { clients: 5, rows: 50, megabytes: 0.1 } },
    }));
    const view = await show([2], 'fr');
    await wait(PREVIEW_DELAY_MS + 50);
    expect(text(view, 'device-caseload')).toContain("Sur l'appareil de cet agent de terrain");
    expect(text(view, 'caseload-figures')).toMatch(/^3\u202f000 clients, 1\u202f450 enregistrements, environ 2,5 Mo/);
    expect(text(view, 'caseload-figures-overflow')).toContain("1 client du portefeuille n'est pas sur l'appareil");
    expect(text(view, 'caseload-preview')).toContain("L'appareil reçoit 5 clients de plus (50 enregistrements, environ 0,1 Mo).");
  });

  it('compares territories whatever their order', () => {
    expect(sameTerritories([1, 2], [2, 1])).toBe(true);
    expect(sameTerritories([1], [1, 2])).toBe(false);
    expect(sameTerritories([], [])).toBe(true);
  });
});
