// @vitest-environment jsdom
// Heavy parts drawn one per task (ADR-0035, src/lib/ui/useInTurn.ts): none before the data is
// ready, then one more per commit, in order, each commit its own; never more than the total;
// and parts drawn only once near the screen (src/lib/ui/nearScreen.ts).
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useNearScreen } from '../../../src/lib/ui/nearScreen';
import { useInTurn } from '../../../src/lib/ui/useInTurn';
import { render, wait, type Rendered } from './render';

const commits: number[] = [];

function Parts({ ready }: { ready: boolean }) {
  const shown = useInTurn(4, ready);
  commits.push(shown);
  return createElement(
    'ol',
    null,
    Array.from({ length: shown }, (_, i) => createElement('li', { key: i }, `part ${i + 1}`)),
  );
}

let rendered: Rendered | undefined;
afterEach(async () => {
  await rendered?.unmount();
  commits.length = 0;
});

describe('useInTurn', () => {
  it('draws nothing until ready, then one part per turn, in order, up to the total', async () => {
    rendered = await render(createElement(Parts, { ready: false }));
    await wait(20);
    expect(rendered.container.querySelectorAll('li')).toHaveLength(0);

    await rendered.rerender(createElement(Parts, { ready: true }));
    await wait(50);
    const items = [...rendered.container.querySelectorAll('li')].map((li) => li.textContent);
    expect(items).toEqual(['part 1', 'part 2', 'part 3', 'part 4']);
    // Each count was drawn on its own: 0 while not ready, then 1, 2, 3, 4, never two at once.
    const distinct = commits.filter((n, i) => i === 0 || n !== commits[i - 1]);
    expect(distinct).toEqual([0, 1, 2, 3, 4]);
    await wait(20);
    expect(Math.max(...commits)).toBe(4);
  });
});

// A fake IntersectionObserver (jsdom has none): the test says when an element comes near.
const observed = new Set<Element>();
let notify: ((element: Element) => void) | undefined;
class FakeObserver {
  constructor(private readonly callback: (entries: { isIntersecting: boolean; target: Element }[]) => void) {
    notify = (element) => observed.has(element) && this.callback([{ isIntersecting: true, target: element }]);
  }
  observe(element: Element): void {
    observed.add(element);
  }
  disconnect(): void {
    observed.clear();
  }
}

function Placeholder({ shown }: { shown: boolean }) {
  const [near, place] = useNearScreen('300px');
  if (!shown) return createElement('p', null, 'nothing yet');
  return createElement('div', { ref: place, 'data-testid': 'place' }, near ? 'drawn' : 'waiting');
}

describe('useNearScreen', () => {
  it('watches a placeholder that mounts later, and draws once it comes near', async () => {
    const globals = globalThis as { IntersectionObserver?: unknown };
    const before = globals.IntersectionObserver;
    globals.IntersectionObserver = FakeObserver;
    try {
      rendered = await render(createElement(Placeholder, { shown: false }));
      expect(observed.size).toBe(0);
      await rendered.rerender(createElement(Placeholder, { shown: true }));
      const place = rendered.container.querySelector('[data-testid="place"]');
      expect(place?.textContent).toBe('waiting');
      expect(observed.has(place as Element)).toBe(true);
      notify?.(place as Element);
      await wait(20);
      expect(rendered.container.querySelector('[data-testid="place"]')?.textContent).toBe('drawn');
      expect(observed.size).toBe(0); // no longer watched once drawn
    } finally {
      globals.IntersectionObserver = before;
    }
  });
});
