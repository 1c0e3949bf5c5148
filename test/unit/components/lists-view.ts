// Shared by the component tests that draw a view over the lookup lists a device holds (the
// entity grid and form): the lists in localStorage before each test, the view unmounted after,
// and the grid drawn over service providers unless a test says otherwise.
import { createElement } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { serviceProvider } from '../../../schemas/index';
import { EntityGrid, type EntityGridProps } from '../../../src/components/entity';
import { LISTS_KEY } from '../../../src/lib/data/lists';
import type { ListQuery, ListResult } from '../../../src/lib/data/types';
import { render, wait, type Lang, type Rendered } from './render';

export interface Mounted {
  /** The view a test drew last: unmounted after the test unless the test did (and set null). */
  view: Rendered | null;
}

/** Registers a localStorage holding only `lists` before each test and the unmount after it. */
export function viewOverLists(lists: unknown): Mounted {
  const mounted: Mounted = { view: null };
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(LISTS_KEY, JSON.stringify(lists));
  });
  afterEach(async () => {
    await mounted.view?.unmount();
    mounted.view = null;
  });
  return mounted;
}

export type GridProps = Partial<EntityGridProps<Record<string, unknown>>> & Pick<EntityGridProps<Record<string, unknown>>, 'load'>;

/** Draws EntityGrid (service providers' name, type and territory unless `props` say otherwise),
 * waits for the element `until` selects when given (at most 10 s), then lets the first load land. */
export async function openGrid(mounted: Mounted, props: GridProps, lang: Lang, until?: string): Promise<Rendered> {
  const view = await render(
    createElement(EntityGrid<Record<string, unknown>>, { entity: serviceProvider, columns: ['sp_Name', 'sp_type', 'territory'], ...props }),
    lang,
  );
  mounted.view = view;
  if (until) for (let waited = 0; !view.container.querySelector(until) && waited < 10_000; waited += 20) await wait(20);
  await wait(10);
  return view;
}

/** A grid's `load` answering all of `rows` as the page asked (`pageSize` when the query names
 * none), with a count of `total()` (the rows' unless given), marked a lower bound when told. */
export function pagedLoader(
  rows: Record<string, unknown>[],
  pageSize: number,
  { total = () => rows.length, totalIsLowerBound }: { total?: () => number; totalIsLowerBound?: true } = {},
) {
  return vi.fn(async (query: ListQuery): Promise<ListResult<Record<string, unknown>>> => ({
    rows,
    total: total(),
    ...(totalIsLowerBound ? { totalIsLowerBound } : {}),
    page: query.page ?? 1,
    pageSize: query.pageSize ?? pageSize,
  }));
}
