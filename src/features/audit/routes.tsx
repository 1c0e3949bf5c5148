import { OnlineOnly } from '../../components/OnlineOnly';
import type { FeatureRoute } from '../../lib/featureRoutes';
import { AuditPage } from './AuditPage';
import { ClientRequestsPage } from './ClientRequestsPage';

/** Screens under /audit (the area itself is guarded by route.audit): the log (audit.read, like
 * GET /api/audit) and the client data requests (clients.handover). Server screens: with no
 * connection they say so under their title. */
export const auditRoutes: FeatureRoute[] = [
  {
    permission: 'audit.read',
    element: (
      <OnlineOnly titleId="screens.audit">
        <AuditPage />
      </OnlineOnly>
    ),
  },
  {
    path: 'clients',
    permission: 'clients.handover',
    element: (
      <OnlineOnly titleId="screens.auditClients">
        <ClientRequestsPage />
      </OnlineOnly>
    ),
  },
];
