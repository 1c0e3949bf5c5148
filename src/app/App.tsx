import { useEffect } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { RawIntlProvider, useIntl } from 'react-intl';
import { SnackbarProvider } from 'notistack';
import { PreferencesProvider } from '../components';
import { ServiceWorkerGate } from '../features/pwa';
import { TOAST_DURATION_MS } from '../lib/constants';
import { takeFlash } from '../lib/flash';
import type { AppIntl } from '../lib/i18n';
import { registerNavigate } from '../lib/navigation';
import { notify } from '../lib/notify';
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

export function App({ intl }: { intl: AppIntl }) {
  return (
    <RawIntlProvider value={intl}>
      <PreferencesProvider>
        <SnackbarProvider maxSnack={4} autoHideDuration={TOAST_DURATION_MS} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}>
          <LoginFlash />
          <RouterProvider router={router} />
          <ServiceWorkerGate />
        </SnackbarProvider>
      </PreferencesProvider>
    </RawIntlProvider>
  );
}
