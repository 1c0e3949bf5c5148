import { Suspense, useEffect, useState } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { RawIntlProvider, useIntl } from 'react-intl';
import { SnackbarProvider } from 'notistack';
import { PreferencesProvider, TOAST_COMPONENTS } from '../components';
import { ServiceWorkerGate } from '../features/pwa';
import { preloadSignedInShell } from '../features/shell';
import { registerNavigate, registerPreload, TOAST_DURATION_MS } from '../lib/util';
import { notify, preloadable, takeFlash } from '../lib/ui';
import { type AppIntl, appIsOnline, getMode, getToken, getUser } from '../lib/session';
import { collectionWhenSetUp, formerMirrorHeld, loadStoreCode, openIcrsDbOnce } from '../lib/data/start';
import { storedPublicConfig } from '../lib/http';
import { forgetAsked, forgetLegacyData, resumeVault, settleIdleSession, settleLegacyToken } from '../lib/vault';
import { reloadLocked, VaultGate } from '../features/auth';
import { firstEntitiesAt, preloadGridAt, prefetchListAt, prefetchOnNavigation, readListAheadAt } from './listPrefetch';
import { preloadRoute, routes } from './routes';

// Made on the first render, not while this module evaluates: the router starts loading the
// first screen's chunk at once, and that chunk imports this one (ADR-0035).
let router: ReturnType<typeof createBrowserRouter> | undefined;
function appRouter() {
  if (!router) {
    const made = createBrowserRouter(routes);
    prefetchOnNavigation(made);
    // Code outside React (interceptor, logout) navigates through the router, without a reload.
    registerNavigate((to, options) => void made.navigate(to, options));
    registerPreload((to) => {
      void preloadRoute(to);
      void preloadGridAt(to);
    });
    router = made;
  }
  return router;
}

/** A signed-in start at `/` in offline mode goes straight to the offline home (what `/` shows
 * then, see HomeRoute): the first render is the offline home's, without a redirect's render
 * and navigation between (ADR-0035: an offline start shows within 1 s). */
function landOnOfflineHome(): void {
  if (window.location.pathname !== '/' || getUser() === null || getMode() !== 'offline') return;
  window.history.replaceState(window.history.state, '', `/offlinehp${window.location.search}${window.location.hash}`);
}

// The local store (RxDB) loads only for a signed-in user (ADR-0035): not with the login screen.
// Online, IndexedDB is opened by the provider, after the first render: opened earlier, beside the
// first screen's rendering, it slowed every signed-in start (docs/performance.md "Start-up").
// Offline the first screen needs it: it opens once the vault has (startModules).
const signedInStore = preloadable(() => import('../features/offline').then((module) => module.SignedInStore));

/**
 * A signed-in page load asks at once for what its first screen needs: the store's module, the
 * frame's, the screen's, and on a list's address its first page and the grid (ADR-0035). The
 * first render waits for the modules (src/main.tsx), beside the translations, so that it draws
 * the screen whole: each part drawn later was held back by React's Suspense throttle.
 * Resolves once they are in, or failed (their own render reports it).
 */
export function startModules(): Promise<unknown> {
  forgetLegacyData();
  const forgotten = forgetAsked().catch((error: unknown) => console.warn('A removal asked earlier did not finish:', error));
  const user = getUser();
  settleLegacyToken(user?.userId ?? null);
  settleIdleSession(storedPublicConfig().lockAfterMinutes);
  if (user === null) return forgotten;
  landOnOfflineHome();
  // The user's vault, opened beside the modules when this tab had it open (ADR-0020): the first
  // render is then the screen, not the lock screen's spinner.
  const vault = forgotten.then(() => resumeVault(user.userId, getToken(), reloadLocked));
  const { pathname } = window.location;
  const listPage = prefetchListAt(pathname); // first: its request leaves before the modules are asked
  // Offline (the mode, or no network), the first screen reads the store and nothing else: RxDB's
  // code loads beside the first render, and the store opens as soon as the vault has, its
  // IndexedDB work beside the frame's drawing (not awaited: the frame is drawn before the store
  // opens; the provider shares this opening, and reports its failure). Online it opens when the
  // page is idle (docs/performance.md "The offline client list").
  if (!appIsOnline()) {
    const storeCode = loadStoreCode();
    void Promise.all([vault, storeCode])
      .then(([resumed]) => {
        if (resumed !== 'open') return undefined;
        // The first screen's collection is set up first, and its page read there at once; not
        // while the store holds a former organisation's mirror, which goes before any read.
        const store = openIcrsDbOnce(firstEntitiesAt(pathname));
        return formerMirrorHeld() ? undefined : readListAheadAt(pathname, collectionWhenSetUp(store));
      })
      .catch(() => undefined);
  }
  return Promise.allSettled([vault, listPage, signedInStore.preload(), preloadSignedInShell(), preloadRoute(pathname)]);
}

/** The 'Logged In' toast of product.md §8, shown after the reload that follows a login; the word that a
 * deactivated account was signed out after the reload that follows it. */
function LoginFlash() {
  const intl = useIntl();
  useEffect(() => {
    const flash = takeFlash();
    if (flash === 'loggedIn') {
      notify.success(intl.formatMessage({ id: 'auth.loggedInTitle' }), intl.formatMessage({ id: 'auth.loggedIn' }));
    } else if (flash === 'accountInactive') {
      notify.error(intl.formatMessage({ id: 'lock.inactiveTitle' }), intl.formatMessage({ id: 'lock.inactive' }));
    }
  }, [intl]);
  return null;
}

/**
 * A signed-in user gets the local store (product.md §D6): opened once per page load, since login and
 * logout both reload the page. Signed-out pages (login, help) never open it.
 */
function Routes() {
  const [signedIn] = useState(() => getUser() !== null);
  const app = <RouterProvider router={appRouter()} />;
  if (!signedIn) return app;
  return (
    <VaultGate>
      <Suspense fallback={null}>
        <signedInStore.Component>{app}</signedInStore.Component>
      </Suspense>
    </VaultGate>
  );
}

export function App({ intl }: { intl: AppIntl }) {
  return (
    <RawIntlProvider value={intl}>
      <PreferencesProvider>
        <SnackbarProvider
          maxSnack={4}
          autoHideDuration={TOAST_DURATION_MS}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          Components={TOAST_COMPONENTS}
        >
          <LoginFlash />
          <Routes />
          <ServiceWorkerGate />
        </SnackbarProvider>
      </PreferencesProvider>
    </RawIntlProvider>
  );
}
