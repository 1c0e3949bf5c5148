import { startTransition, useEffect, useState } from 'react';
import { yieldToBrowser } from '../util';

/**
 * How many of `total` heavy parts to draw: none until `ready`, then one more after each commit
 * has been drawn and the browser has had its turn. Each part is then its own task: on a phone a
 * tap waits for one chart's drawing, not for all of them at once (ADR-0035).
 */
export function useInTurn(total: number, ready: boolean): number {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (!ready || shown >= total) return;
    let cancelled = false;
    // The first part waits for a turn too: the commit that made the parts ready is drawn first.
    void yieldToBrowser().then(() => {
      // A transition: React renders the part in slices, so only its commit is one task.
      if (!cancelled) startTransition(() => setShown((n) => Math.min(total, n + 1)));
    });
    return () => {
      cancelled = true;
    };
  }, [ready, shown, total]);
  return ready ? shown : 0;
}
