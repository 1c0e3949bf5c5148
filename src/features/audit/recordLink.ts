// Where the audit screen links an entry's record: its page, when it has one the user may open.
// The addresses are those of the features' route tables (src/features/*/paths.ts).
import { can, canOpen } from '../../lib/session';
import { clientPath } from '../clients/paths';
import { jobPaths } from '../jobs/paths';
import { providerPath } from '../providers/paths';
import { referralPaths } from '../referrals/paths';
import { servicePaths } from '../services/paths';
import { userPaths } from '../users/paths';
import { LISTS_PATH } from '../lists/paths';
import type { AuditEntry } from './types';

/** Sub-records shown on their client's page. */
const CLIENT_PARTS = new Set(['skills', 'social', 'security', 'business', 'profileImage']);

function pathOf(entry: Pick<AuditEntry, 'entity' | 'recordId' | 'clientId'>): string | null {
  const { entity, recordId, clientId } = entry;
  if (entity && CLIENT_PARTS.has(entity)) return clientId ? clientPath(clientId) : null;
  if (entity === 'list') return LISTS_PATH;
  if (!recordId) return null;
  switch (entity) {
    case 'profile':
      return clientPath(recordId);
    case 'serviceProvider':
      return providerPath(recordId);
    case 'service':
      return servicePaths.page(recordId);
    case 'job':
      return jobPaths.page(recordId);
    case 'referral':
      return referralPaths.page('service', recordId);
    case 'jobReferral':
      return referralPaths.page('job', recordId);
    case 'user':
      return userPaths.edit(recordId);
    default:
      return null;
  }
}

/** The page of the entry's record, or null (no page, or one this role may not open). Erased
 * or deleted records still link: their page says they are gone. */
export function recordPath(entry: Pick<AuditEntry, 'entity' | 'recordId' | 'clientId'>, role: number | null | undefined): string | null {
  const path = pathOf(entry);
  if (!path || !canOpen(role, path)) return null;
  // Another user's page is for the roles that manage users; the lists' for those who edit them.
  if (entry.entity === 'user' && !can(role, 'users.manage')) return null;
  if (entry.entity === 'list' && !can(role, 'lists.write')) return null;
  return path;
}

/** A short form of a record key for a table cell (the whole key is in the CSV and the link). */
export function shortId(recordId: string | null): string {
  if (!recordId) return '';
  return recordId.length > 12 ? `…${recordId.slice(-8)}` : recordId;
}
