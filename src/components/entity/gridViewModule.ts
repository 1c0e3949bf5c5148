// The MUI data grid (~410 KB with the parts of MUI only it uses) loads with the first list
// shown on a wide screen, not with every module that imports this folder: the store, the shell
// and the offline home import small helpers from here and start faster without it (ADR-0035).
// A phone never loads it: lists below 600 px are drawn by PhoneList (ADR-0024).
// The app starts loading it when the address becomes a list screen (src/app/listPrefetch.ts),
// beside the list's first request; once loaded, EntityGrid draws it without a suspended render.
import { preloadable } from '../../lib/ui';
import type { GridViewProps } from './listParts';

export const gridView = preloadable<GridViewProps>(() => import('./GridView').then((module) => module.default));

/** Where lists are drawn by the phone list: the theme's `breakpoints.down('sm')` (MUI's default
 * breakpoints, which src/lib/ui/theme.ts keeps), as EntityGrid's `narrow` reads it. */
export const NARROW_QUERY = '(max-width:599.95px)';

function narrowScreen(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches;
}

/** Starts loading the data grid where a list would draw it (a wide screen); a phone's list needs
 * none of it. */
export function preloadListView(): Promise<unknown> {
  return narrowScreen() ? Promise.resolve(undefined) : gridView.preload();
}
