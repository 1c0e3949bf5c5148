// @vitest-environment jsdom
// The shared list screen (docs/adr/0050-a-new-entity.md "A screen that is its list"): the title
// its area gives, and the entity's grid with the list's columns, its pages asked of the data
// layer for that entity; a spinner while the data layer is not there.
import { createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { serviceProvider } from '../../../schemas/index';
import type { ListQuery } from '../../../src/lib/data/types';
import { messages, render, wait } from './render';
import { viewOverLists } from './lists-view';

const asked = vi.hoisted(() => [] as { entity: unknown; query: ListQuery }[]);
const layer = vi.hoisted(() => ({ there: true }));
const ROWS = [{ sp_Id: '0190a0a0-0000-7000-8000-000000000001', sp_Name: 'Centre Espoir', sp_type: 1, territory: 1, syncState: 'synced' }];
vi.mock('../../../src/lib/data/hooks', () => ({
  useOpeningDataLayer: () =>
    layer.there
      ? {
          listPages: (entity: unknown, query: ListQuery) => {
            asked.push({ entity, query });
            return Promise.resolve({ rows: ROWS, total: ROWS.length, page: 1, pageSize: 25 });
          },
          firstPage: () => undefined,
        }
      : null,
}));

const { EntityListPage } = await import('../../../src/components/entity/EntityListPage');

const LIST = { entity: serviceProvider, columns: ['sp_Name', 'territory'] };

describe('the shared list screen', () => {
  const mounted = viewOverLists({ territory: [{ id: 1, fr: 'Goma', en: 'Goma', active: true }] });

  it("draws the entity's grid under the screen's title, its pages asked for that entity", async () => {
    layer.there = true;
    mounted.view = await render(createElement(EntityListPage, { list: LIST, titleId: 'screens.serviceProviders' }), 'fr');
    for (let waited = 0; !mounted.view.container.textContent?.includes('Centre Espoir') && waited < 10_000; waited += 20) await wait(20);
    expect(mounted.view.container.querySelector('h1')?.textContent).toBe(messages.fr['screens.serviceProviders']);
    expect(mounted.view.container.textContent).toContain('Centre Espoir');
    expect(mounted.view.container.textContent).toContain('Goma');
    expect(asked[0]?.entity).toBe(serviceProvider);
    expect(asked[0]?.query).toMatchObject({ page: 1, pageSize: 25 });
  });

  it('shows a spinner while the data layer is not there', async () => {
    layer.there = false;
    mounted.view = await render(createElement(EntityListPage, { list: LIST, titleId: 'screens.serviceProviders' }), 'en');
    expect(mounted.view.container.querySelector('h1')?.textContent).toBe(messages.en['screens.serviceProviders']);
    expect(mounted.view.container.querySelector(`[aria-label="${messages.en['common.loading']}"]`)).not.toBeNull();
  });
});
