import { startTransition, useEffect, useState, type RefObject } from 'react';

/**
 * True once `place` is on the screen or within `margin` of it (an IntersectionObserver root
 * margin, e.g. '300px'); at once when `enabled` is false or the browser has no observer. Heavy
 * parts far below the first screen (the dashboard's lower charts and its map, on a phone) are
 * then drawn when the user scrolls towards them, not in the page's first seconds (issue 27).
 */
export function useNearScreen(place: RefObject<Element | null>, margin: string, enabled = true): boolean {
  const [near, setNear] = useState(() => !enabled || typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = place.current;
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
  }, [near, place, margin]);
  return near;
}
