// One way for a screen to tell that a save failed, without saying it twice: failed API calls
// are already toasted by the app's interceptor (product.md §8 'Interceptor Error', with the server's
// message), so only what never reached the server (the local store, a full device, a conflict
// the screen explains better) gets its own toast, under the screen's translated title.
import { isAxiosError } from 'axios';
import { ConflictError, messageOf } from '../http';
import { notifyIfQuota, notify } from '../ui';
import { t } from '../session';

/** Shows `error` under the title `titleId` unless the interceptor already did; a conflict is
 * told with the screen's own words (`conflictId`). */
export function reportSaveFailure(titleId: string, error: unknown, conflictId: string): void {
  if (notifyIfQuota(error)) return;
  if (error instanceof ConflictError) {
    notify.error(t(titleId), t(conflictId));
    return;
  }
  if (isAxiosError(error)) return;
  notify.error(t(titleId), messageOf(error));
}
