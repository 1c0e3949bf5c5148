// A stand-in for window.matchMedia in jsdom: the phone-width query matches while `width.narrow`.
import { NARROW_QUERY } from '../../src/components/entity/gridViewModule';

export const width = { narrow: false };

export function mediaQueryList(query: string): MediaQueryList {
  return {
    matches: width.narrow && query.replace(/^@media\s*/, '') === NARROW_QUERY,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  };
}
