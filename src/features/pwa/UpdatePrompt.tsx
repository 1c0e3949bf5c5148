import { useState } from 'react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { Alert, Button, Snackbar } from '@mui/material';
import { ConfirmDialog } from '../../components';
import { INSTALL_RETRY_FIRST_MS, UPDATE_CHECK_DELAY_MS } from '../../lib/util';
// The light module, not the offline feature: the prompt loads with the shell, before any store.
import { afterUploads, useUploading } from '../../lib/ui';
import { useSay } from '../../lib/session';

const HOURLY_MS = 60 * 60 * 1000;

const registrationFailed = (error: unknown) => console.warn('Service worker registration failed:', error);

/** product.md §9: the first update check starts 300 ms after registration; then hourly. */
function scheduleUpdateChecks(registration: ServiceWorkerRegistration | undefined): void {
  if (!registration) return;
  const check = () => registration.update().catch((error: unknown) => console.warn('Update check failed:', error));
  window.setTimeout(check, UPDATE_CHECK_DELAY_MS);
  window.setInterval(check, HOURLY_MS);
}

/**
 * A first install that fails (one of the app's files not downloaded: a weak network, a server
 * restarting) leaves no worker, and the browser drops the registration: the app would not start
 * offline until the page is loaded again, and a field worker may keep it open for hours before
 * going where the network does not reach (docs/adr/0034-app-delivery.md). So the worker is
 * registered again after a pause that doubles, up to hourly, until one is installed.
 */
function retryFailedInstall(swUrl: string, registration: ServiceWorkerRegistration | undefined, pauseMs = INSTALL_RETRY_FIRST_MS): void {
  const installing = registration?.installing;
  if (!registration || registration.active || !installing) return;
  installing.addEventListener('statechange', () => {
    // Redundant because a newer worker took its place: that one installs, nothing to retry.
    const newer = registration.installing !== null && registration.installing !== installing;
    if (installing.state !== 'redundant' || registration.active || registration.waiting || newer) return;
    console.warn(`The app's offline files could not all be downloaded: trying again in ${pauseMs / 1000} s`);
    window.setTimeout(() => {
      navigator.serviceWorker
        .register(swUrl, { scope: registration.scope })
        .then((again) => retryFailedInstall(swUrl, again, Math.min(pauseMs * 2, HOURLY_MS)), registrationFailed);
    }, pauseMs);
  });
}

/**
 * Registers the service worker (mounted by the gate once the app is stable) and, when a new
 * version waits, shows the notice and the confirm dialog of product.md §1. An update never cuts an
 * upload: the notice waits while this tab uploads, and the confirmation takes effect once no
 * tab uploads (it holds the upload lock while the new version takes over).
 */
export function UpdatePrompt() {
  const say = useSay();
  const [dialogOpen, setDialogOpen] = useState(true);
  const {
    needRefresh: [needRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW: (swUrl, registration) => {
      scheduleUpdateChecks(registration);
      retryFailedInstall(swUrl, registration);
    },
    onRegisterError: registrationFailed,
  });
  const uploading = useUploading();
  // An update replaces the worker that controls this page. With none (a first visit, whose
  // sign-in reloads the page while the first worker still installs), a worker that installs is
  // the first one, not a new version: workbox-window calls it "external" and asks for a
  // refresh, which Firefox showed right after a first sign-in.
  const controlled = Boolean(navigator.serviceWorker?.controller);
  if (!needRefresh || uploading || !controlled) return null;
  // On confirm the waiting worker takes over and the plugin reloads the page.
  const confirm = () => {
    setDialogOpen(false);
    void afterUploads(() => updateServiceWorker(true));
  };
  return (
    <>
      <Snackbar open anchorOrigin={{ vertical: 'top', horizontal: 'center' }}>
        <Alert
          severity="info"
          variant="filled"
          action={
            <Button color="inherit" size="small" onClick={() => setDialogOpen(true)}>
              {say('pwa.update')}
            </Button>
          }
        >
          {say('pwa.refresh')}
        </Alert>
      </Snackbar>
      <ConfirmDialog
        open={dialogOpen}
        title={say('pwa.title')}
        text={say('pwa.confirm')}
        confirmLabel={say('pwa.update')}
        onConfirm={confirm}
        onCancel={() => setDialogOpen(false)}
      />
    </>
  );
}
