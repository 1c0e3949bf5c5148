// The audit area (product.md §2 Administration): the log (audit.read, like GET /api/audit) and
// the client data requests (clients.handover), behind route.audit. Server screens: with no
// connection they say so under their title.
import HistoryIcon from '@mui/icons-material/History';
import { defineArea } from '../../components/area';
import { OnlineOnly } from '../../components/OnlineOnly';
import { AUDIT_PATH } from './paths';

export const auditArea = defineArea({
  id: 'audit',
  order: 40,
  base: AUDIT_PATH,
  guard: 'route.audit',
  load: () => import('./index'),
  screens: [
    {
      permission: 'audit.read',
      render: (s) => (
        <OnlineOnly titleId="screens.audit">
          <s.AuditPage />
        </OnlineOnly>
      ),
    },
    {
      path: 'clients',
      permission: 'clients.handover',
      render: (s) => (
        <OnlineOnly titleId="screens.auditClients">
          <s.ClientRequestsPage />
        </OnlineOnly>
      ),
    },
  ],
  menu: [{ id: 'audit', group: 'admin', labelId: 'menu.audit', to: AUDIT_PATH, icon: HistoryIcon, permission: 'menu.audit' }],
});
