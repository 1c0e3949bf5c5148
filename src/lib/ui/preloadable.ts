// A component whose module loads on demand, like React.lazy, but drawn at once when its module
// is in already. React.lazy suspends on its first render even then, and a Suspense fallback once
// shown holds back the content after it: React reveals it no sooner than 300 ms after the last
// fallback it committed (its FALLBACK_THROTTLE_MS). A signed-in start had three such fallbacks
// in a row (store, frame, screen): a list's first rows came ~300 ms late (ADR-0035, measured in
// docs/archive/performance-log.md "Lists in the browser", session 8). The app starts the loads of the first
// screen's modules before its first render (`startModules` in src/app/App.tsx, awaited by
// src/main.tsx); where one is not in yet, the component suspends as React.lazy does.
import { createElement, lazy, useState, type ComponentType } from 'react';

export interface Preloadable<P extends object> {
  /** Drawn at once when the module was in at its mount, else through React.lazy. */
  Component: ComponentType<P>;
  /** Starts the load (once; again after a failed one). */
  preload: () => Promise<ComponentType<P>>;
  /** The component, once its module is in. */
  loaded: () => ComponentType<P> | undefined;
}

export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let component: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then(
      (loadedComponent) => {
        component = loadedComponent;
        return loadedComponent;
      },
      (error: unknown) => {
        loading = undefined; // a network hiccup: the next render asks again
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(async () => ({ default: await preload() }));
  function PreloadableComponent(props: P) {
    // Chosen once per mount: changing from the lazy one to the loaded one would mount it anew.
    const [Chosen] = useState<ComponentType<P>>(() => component ?? Lazy);
    return createElement(Chosen, props);
  }
  return { Component: PreloadableComponent, preload, loaded: () => component };
}
