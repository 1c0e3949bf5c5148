// Sharing the main thread (ADR-0035, src/lib/util/mainThread.ts): pieces in order, and the yield
// really gives other queued tasks their turn before the caller goes on.
import { describe, expect, it } from 'vitest';
import { inPieces, yieldToBrowser } from '../../src/lib/util/mainThread';

describe('main thread sharing', () => {
  it('cuts a list into pieces of at most the size, in order, losing nothing', () => {
    const items = Array.from({ length: 53 }, (_, i) => i);
    const pieces = inPieces(items, 25);
    expect(pieces.map((p) => p.length)).toEqual([25, 25, 3]);
    expect(pieces.flat()).toEqual(items);
    expect(inPieces([], 25)).toEqual([]);
  });

  it('resumes in a later task: a due timer and every pending microtask run first', async () => {
    const order: string[] = [];
    setTimeout(() => order.push('due timer'), 0);
    await new Promise((resolve) => setTimeout(resolve, 5)); // the timer above is due by now
    setTimeout(() => order.push('timer queued just before'), 0);
    await new Promise((resolve) => setTimeout(resolve, 1));
    let microtasks = 0;
    const chain = (n: number): void =>
      void Promise.resolve().then(() => {
        microtasks += 1;
        if (n > 1) chain(n - 1);
      });
    chain(100);
    await yieldToBrowser();
    order.push('after yield');
    expect(microtasks).toBe(100);
    expect(order).toEqual(['due timer', 'timer queued just before', 'after yield']);
  });
});
