// The `unload` package's API on `pagehide` (ADR-0035). RxDB's leader election (broadcast-channel)
// registers its clean-up with `unload`, which listens to the `unload` event: deprecated, it keeps
// the page out of the back/forward cache, and Lighthouse's best practices count it against the
// app. vite.config.ts resolves `unload` to this module in the app's build. `pagehide` fires
// wherever `unload` did (a closed tab, a reload, a navigation away), and also when the page
// enters the back/forward cache; the leader then hands over, as it would for a closed tab.
type Listener = () => unknown;

const listeners = new Set<Listener>();
let listening = false;

function listen(): void {
  if (listening || typeof window === 'undefined' || typeof window.addEventListener !== 'function') return;
  listening = true;
  window.addEventListener('pagehide', () => void runAll(), true);
}

export function add(fn: Listener): { remove(): boolean; run(): unknown } {
  if (typeof fn !== 'function') throw new Error('Listener is no function');
  listen();
  listeners.add(fn);
  return {
    remove: () => listeners.delete(fn),
    run: () => {
      listeners.delete(fn);
      return fn();
    },
  };
}

export function runAll(): Promise<unknown[]> {
  const results = [...listeners].map((fn) => {
    listeners.delete(fn);
    return fn();
  });
  return Promise.all(results);
}

export function removeAll(): void {
  listeners.clear();
}

export function getSize(): number {
  return listeners.size;
}
