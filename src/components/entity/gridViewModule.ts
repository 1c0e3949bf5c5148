// The MUI data grid (~410 KB with the parts of MUI only it uses) loads with the first list
// shown, not with every module that imports this folder: the store, the shell and the offline
// home import small helpers from here and start faster without it (issue 16).
// The app starts loading it when the address becomes a list screen (src/app/listPrefetch.ts),
// beside the list's first request; once loaded, EntityGrid draws it without a suspended render.
import { preloadable } from '../../lib/preloadable';
import type { GridViewProps } from './GridView';

export const gridView = preloadable<GridViewProps>(() => import('./GridView').then((module) => module.default));
