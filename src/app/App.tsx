import { useEffect, useState } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { RawIntlProvider, useIntl } from 'react-intl';
import { SnackbarProvider } from 'notistack';
import { PreferencesProvider, TOAST_COMPONENTS } from '../components';
import { SignedInStore } from '../features/offline';
import { ServiceWorkerGate } from '../features/pwa';
import { TOAST_DURATION_MS } from '../lib/constants';
import { takeFlash } from '../lib/flash';
import type { AppIntl } from '../lib/i18n';
import { registerNavigate } from '../lib/navigation';
import { notify } from '../lib/notify';
import { getUser } from '../lib/session';
import { routes } from './routes';

const router = createBrowserRouter(routes);

// Code outside React (interceptor, logout) navigates through the router, without a reload.
registerNavigate((to, options) => void router.navigate(to, options));

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
  const app = <RouterProvider router={router} />;
  return signedIn ? <SignedInStore>{app}</SignedInStore> : app;
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
