import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Box, Toolbar, useMediaQuery } from '@mui/material';
import { useSessionUser } from '../../components';
import type { MenuItem } from '../../components/area';
import { WIDE_MEDIA_QUERY } from '../../lib/util';
import { preloadable } from '../../lib/ui';
import { Footer } from './Footer';
import { TrainingBanner } from './TrainingBanner';

// Signed-in parts load on their own (ADR-0035): the login screen's JavaScript stays small. A
// signed-in start asks for them at once, beside the store (`preloadSignedInShell`), and draws
// them in its first render.
const signedInChrome = preloadable(() => import('./SignedInChrome').then((module) => module.default));
const unsentBanner = preloadable(() => import('../offline').then((module) => module.UnsentBanner));

/** Starts loading the signed-in parts of the frame; resolves once they are in (or failed). */
export function preloadSignedInShell(): Promise<unknown> {
  return Promise.allSettled([signedInChrome.preload(), unsentBanner.preload()]);
}

/** Page frame: top bar and sidebar when signed in (product.md §2), banner, content, footer always.
 * `menu`: the sidebar's entries, the areas' (src/app/areas.ts). */
export function Shell({ menu }: { menu: readonly MenuItem[] }) {
  const user = useSessionUser();
  const wide = useMediaQuery(WIDE_MEDIA_QUERY, { noSsr: true });
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      {user && (
        <Suspense fallback={null}>
          <signedInChrome.Component user={user} wide={wide} menu={menu} />
        </Suspense>
      )}
      <Box sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        {user && <Toolbar />}
        <TrainingBanner />
        {user && (
          <Suspense fallback={null}>
            <unsentBanner.Component />
          </Suspense>
        )}
        <Box component="main" id="main" sx={{ flexGrow: 1, p: { xs: 1.5, sm: 3 } }}>
          <Outlet />
        </Box>
        <Footer />
      </Box>
    </Box>
  );
}
