// Messages after a save or a failure. Failed API calls are already toasted by the app's
// interceptor ('Interceptor Error' with the server's message, product.md §8); these screens add a
// toast with their own translated title only for failures the interceptor never saw (the
// local store, a conflict, a file), so no failure is silent and none is told twice.
import { appIsOnline } from '../../lib/session';
import { reportSaveFailure } from '../../lib/data';

/** A failed save or delete, told once with the screen's title. */
export function reportFailure(titleId: string, error: unknown): void {
  reportSaveFailure(titleId, error, 'services.conflict');
}

/** Saves go to the server only in online mode with a network; else they wait on the device. */
export function savesOnline(): boolean {
  return appIsOnline();
}
