// @vitest-environment jsdom
// preloadable (src/lib/ui/preloadable.ts): a component whose module was loaded before its mount is
// drawn in the same render, without a Suspense fallback (which would hold back the screen by
// React's reveal throttle); one not loaded yet suspends like React.lazy; a failed load is tried
// again.
import { act, createElement, Suspense, type ComponentType } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { preloadable } from '../../../src/lib/ui/preloadable';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Greeting({ name }: { name: string }) {
  return createElement('p', null, `Hello ${name}`);
}

let root: Root | undefined;
let container: HTMLElement;

/** Renders `Component` under a Suspense boundary and returns what the first render committed
 * (act with a synchronous callback: nothing it waits for has arrived yet). */
function drawOnce(Component: ComponentType<{ name: string }>): string {
  container = document.createElement('div');
  root = createRoot(container);
  act(() =>
    root?.render(createElement(Suspense, { fallback: createElement('p', null, 'loading') }, createElement(Component, { name: 'Amani' }))),
  );
  return container.textContent ?? '';
}

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
});

describe('preloadable', () => {
  it('draws a component loaded before its mount in the first render, with its props', async () => {
    const load = vi.fn(async () => Greeting);
    const greeting = preloadable(load);
    expect(greeting.loaded()).toBeUndefined();
    await greeting.preload();
    expect(greeting.loaded()).toBe(Greeting);
    expect(drawOnce(greeting.Component)).toBe('Hello Amani');
    await greeting.preload();
    expect(load).toHaveBeenCalledTimes(1); // loaded once
  });

  it('suspends like React.lazy while its module is still loading, then draws it', async () => {
    let arrive!: (component: typeof Greeting) => void;
    const greeting = preloadable(() => new Promise<typeof Greeting>((resolve) => (arrive = resolve)));
    expect(drawOnce(greeting.Component)).toBe('loading');
    await act(async () => arrive(Greeting));
    expect(container.textContent).toBe('Hello Amani');
  });

  it('asks again after a failed load', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('network down')).mockResolvedValue(Greeting);
    const greeting = preloadable<{ name: string }>(load);
    await expect(greeting.preload()).rejects.toThrow('network down');
    expect(greeting.loaded()).toBeUndefined();
    await expect(greeting.preload()).resolves.toBe(Greeting);
    expect(load).toHaveBeenCalledTimes(2);
    expect(drawOnce(greeting.Component)).toBe('Hello Amani');
  });
});
