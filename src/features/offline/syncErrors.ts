// product.md §8 'Job Sync Error' and 'Profile Sync Error': the pull of the device's working set
// (product.md §D6) failed for jobs or for clients. The replication retries by itself every few
// seconds, so a kind is told once, and again only after it has pulled well since; a lost
// connection is not told here (the network indicator says it), only a server that answered
// with an error. Other kinds are only logged, as before.
import { isAxiosError } from 'axios';
import { entityByName } from '../../../schemas/index';
import { messageOf } from '../../lib/http';
import { notify } from '../../lib/ui';
import { t } from '../../lib/session';

const JOB_SYNC = 'errors.jobSyncTitle';
const PROFILE_SYNC = 'errors.profileSyncTitle';

const TITLE_OF_TABLE: Readonly<Record<string, string>> = Object.fromEntries([
  ...[entityByName.job, entityByName.otherJob].map((e) => [e.table, JOB_SYNC]),
  ...[
    entityByName.profile,
    entityByName.skills,
    entityByName.social,
    entityByName.security,
    entityByName.business,
    entityByName.profileImage,
  ].map((e) => [e.table, PROFILE_SYNC]),
]);

/** The table a failed pull request asked for (GET /sync/{table}, POST /sync/{table}/keys). */
function tableOf(error: unknown): string | undefined {
  if (!isAxiosError(error) || !error.response) return undefined;
  const match = /^\/?sync\/([^/?]+)/.exec(error.config?.url ?? '');
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

/** Hears the replication's failures and successes; toasts a kind when its first table starts
 * failing, not again while any of its tables still fails. */
export function syncFailureToasts(): { failed: (error: unknown) => void; pulled: (table: string) => void } {
  const failing = new Set<string>();
  return {
    failed(error) {
      const table = tableOf(error);
      const title = table ? TITLE_OF_TABLE[table] : undefined;
      if (!table || !title || failing.has(table)) return;
      const told = [...failing].some((other) => TITLE_OF_TABLE[other] === title);
      failing.add(table);
      if (!told) notify.error(t(title), t('errors.syncFailed', { message: messageOf(error) }));
    },
    pulled(table) {
      failing.delete(table);
    },
  };
}
