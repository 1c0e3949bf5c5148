import { startTransition, useEffect, useState } from 'react';

/**
 * `[near, place]`: give `place` as the `ref` of the part's placeholder; `near` turns true once
 * that element is on the screen or within `margin` of it (an IntersectionObserver root margin,
 * e.g. '300px'), at once when `enabled` is false or the browser has no observer. Heavy parts far
 * below the first screen (the dashboard's lower charts and its map, on a phone) are then drawn
 * when the user scrolls towards them, not in the page's first seconds (ADR-0035). A callback ref,
 * so a placeholder that mounts later (a chart whose first figures were empty) is watched too.
 */
export function useNearScreen(margin: string, enabled = true): [boolean, (element: Element | null) => void] {
  const [near, setNear] = useState(() => !enabled || typeof IntersectionObserver === 'undefined');
  const [element, setElement] = useState<Element | null>(null);
  useEffect(() => {
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        // A transition: the part is rendered in slices, so a scroll or tap meanwhile is answered.
        if (entries.some((entry) => entry.isIntersecting)) startTransition(() => setNear(true));
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, element, margin]);
  return [near, setElement];
}
