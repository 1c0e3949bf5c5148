// Messages after a save or a failure. Failed API calls are already toasted by the app's
// interceptor ('Interceptor Error' with the server's message, spec §8); these screens add a
// toast with their own translated title only for failures the interceptor never saw (the
// local store, a conflict, a file), so no failure is silent and none is told twice.
import { isAxiosError } from 'axios';
import type { IntlShape } from 'react-intl';
import { ConflictError } from '../../lib/datalayer';
import { appIsOnline } from '../../lib/db/hooks';
import { notify } from '../../lib/notify';
import { notifyIfQuota } from '../offline';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A failed save or delete, told once with the screen's title. */
export function reportFailure(intl: IntlShape, titleId: string, error: unknown): void {
  if (isAxiosError(error)) return; // the interceptor has shown it
  if (notifyIfQuota(error)) return; // a full device has its own message
  const title = intl.formatMessage({ id: titleId });
  if (error instanceof ConflictError) notify.error(title, intl.formatMessage({ id: 'services.conflict' }));
  else notify.error(title, messageOf(error));
}

/** Saves go to the server only in online mode with a network; else they wait on the device. */
export function savesOnline(): boolean {
  return appIsOnline();
}
