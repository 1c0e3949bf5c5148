// The offline screens (product.md §2 Offline home, docs/offline-contract.md "Offline screens"):
// the offline home and the records waiting on this device, behind route.offlinehp.
import { defineArea } from '../../components/area';
import { OFFLINE_HOME_PATH } from './paths';

export const offlineArea = defineArea({
  id: 'offline',
  order: 120,
  base: OFFLINE_HOME_PATH,
  guard: 'route.offlinehp',
  load: () => import('./index'),
  screens: [{ render: (s) => <s.OfflineHomePage /> }, { path: 'pending', render: (s) => <s.PendingRecordsPage /> }],
});
