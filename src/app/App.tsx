import { lazy, Suspense, useEffect, useState } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { RawIntlProvider, useIntl } from 'react-intl';
import { SnackbarProvider } from 'notistack';
import { PreferencesProvider, TOAST_COMPONENTS } from '../components';
import { ServiceWorkerGate } from '../features/pwa';
import { TOAST_DURATION_MS } from '../lib/constants';
import { takeFlash } from '../lib/flash';
import type { AppIntl } from '../lib/i18n';
import { registerNavigate } from '../lib/navigation';
import { notify } from '../lib/notify';
import { getMode, getUser } from '../lib/session';
import { prefetchOnNavigation, prefetchOnPageLoad } from './listPrefetch';
import { routes } from './routes';

// Made on the first render, not while this module evaluates: the router starts loading the
// first screen's chunk at once, and that chunk imports this one (issue 16).
let router: ReturnType<typeof createBrowserRouter> | undefined;
function appRouter() {
  if (!router) {
    landOnOfflineHome();
    const made = createBrowserRouter(routes);
    prefetchOnNavigation(made);
    // Code outside React (interceptor, logout) navigates through the router, without a reload.
    registerNavigate((to, options) => void made.navigate(to, options));
    router = made;
  }
  return router;
}

/** A signed-in start at `/` in offline mode goes straight to the offline home (what `/` shows
 * then, see HomeRoute): the first render is the offline home's, without a redirect's render
 * and navigation between (issue 16: an offline start shows within 1 s). */
function landOnOfflineHome(): void {
  if (window.location.pathname !== '/' || getUser() === null || getMode() !== 'offline') return;
  window.history.replaceState(window.history.state, '', `/offlinehp${window.location.search}${window.location.hash}`);
}

// The local store (RxDB) loads only for a signed-in user (issue 16): not with the login screen.
// A signed-in start needs it at once: fetched while the translations load (src/main.tsx).
// IndexedDB is opened by the provider, after the first render: opened earlier, beside the first
// screen's rendering, it slowed every signed-in start (docs/performance.md "Start-up").
const storeModule = getUser() !== null ? import('../features/offline') : undefined;
// A signed-in page load of a list's address asks the list's first page at once (issue 16).
if (getUser() !== null) prefetchOnPageLoad(window.location.pathname);
const SignedInStore = lazy(() => (storeModule ?? import('../features/offline')).then((m) => ({ default: m.SignedInStore })));

/** The 'Logged In' toast of spec §8, shown after the reload that follows a login. */
function LoginFlash() {
  const intl = useIntl();
  useEffect(() => {
    if (takeFlash() === 'loggedIn') {
      notify.success(intl.formatMessage({ id: 'auth.loggedInTitle' }), intl.formatMessage({ id: 'auth.loggedIn' }));
    }
  }, [intl]);
  return null;
}

/**
 * A signed-in user gets the local store (issue 4): opened once per page load, since login and
 * logout both reload the page. Signed-out pages (login, help) never open it.
 */
function Routes() {
  const [signedIn] = useState(() => getUser() !== null);
  const app = <RouterProvider router={appRouter()} />;
  if (!signedIn) return app;
  return (
    <Suspense fallback={null}>
      <SignedInStore>{app}</SignedInStore>
    </Suspense>
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
