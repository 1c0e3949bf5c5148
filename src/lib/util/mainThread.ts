// Sharing the page's main thread (ADR-0035): long work in small pieces, between which the
// browser answers input and draws (a tap waits for one piece at most, not for the whole job),
// and work that can wait started once the page is idle.

interface SchedulerWithYield {
  yield(): Promise<void>;
}

/** The page's `scheduler.yield()` where the browser has it (Chromium 129+), else undefined. */
function pageScheduler(): SchedulerWithYield | undefined {
  const candidate = (globalThis as { scheduler?: Partial<SchedulerWithYield> }).scheduler;
  return typeof candidate?.yield === 'function' ? (candidate as SchedulerWithYield) : undefined;
}

/**
 * Resolves in a later task, after the input and rendering the browser has waiting.
 * `scheduler.yield()` where there is one; else a message-channel task, which a hidden tab does
 * not slow down as it does `setTimeout` (once a second: a background pull would crawl).
 */
export function yieldToBrowser(): Promise<void> {
  const scheduler = pageScheduler();
  if (scheduler) return scheduler.yield();
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Splits `items` into pieces of at most `size`, in order. */
export function inPieces<T>(items: readonly T[], size: number): T[][] {
  const pieces: T[][] = [];
  for (let i = 0; i < items.length; i += size) pieces.push(items.slice(i, i + size));
  return pieces;
}

/**
 * Runs `start` when the page is first idle after this call (at the latest after `maxWaitMs`),
 * at once where the browser cannot tell (no requestIdleCallback: Safari). Returns a cancel.
 */
export function whenIdle(start: () => void, maxWaitMs: number): () => void {
  if (typeof window === 'undefined' || typeof window.requestIdleCallback !== 'function') {
    start();
    return () => undefined;
  }
  const id = window.requestIdleCallback(start, { timeout: maxWaitMs });
  return () => window.cancelIdleCallback(id);
}
