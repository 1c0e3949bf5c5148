// One way to tell the user that something on these screens failed, without saying it twice:
// failed API calls are already toasted by the app's interceptor (spec §8 'Interceptor Error'),
// so only what never reached the server (the local store, a full device, a conflict the
// screen explains better) gets its own toast, under a translated title.
import { isAxiosError } from 'axios';
import { messageOf } from '../../components/entity';
import { ConflictError } from '../../lib/datalayer';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { notifyIfQuota } from '../offline';

/** Shows `error` under the title `titleId` unless the interceptor already did. */
export function reportFailure(titleId: string, error: unknown): void {
  if (notifyIfQuota(error)) return;
  if (error instanceof ConflictError) {
    notify.error(t(titleId), t('jobs.error.conflict'));
    return;
  }
  if (isAxiosError(error)) return; // toasted by the interceptor with the server's message
  notify.error(t(titleId), messageOf(error));
}
