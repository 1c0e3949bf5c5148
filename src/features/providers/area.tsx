// The service providers area (product.md §2 route table: serviceproviders and below): the
// provider list, a provider, add/edit and verification, behind route.serviceproviders. Each
// screen also checks its own menu or action key, so what the sidebar hides cannot be opened by
// its address either. The sidebar's Service Providers group is this area's, with its link to
// the services (services/area.tsx: their screens load with these, under the same first segment).
import AddBusinessIcon from '@mui/icons-material/AddBusiness';
import BlockIcon from '@mui/icons-material/Block';
import BusinessIcon from '@mui/icons-material/Business';
import MiscellaneousServicesIcon from '@mui/icons-material/MiscellaneousServices';
import VerifiedIcon from '@mui/icons-material/Verified';
import { defineArea } from '../../components/area';
import { SERVICES_PATH } from '../services/paths';
import { PROVIDER_LIST } from './list';
import { addProviderPath, PROVIDERS_PATH, rejectedPath, verifyPath } from './paths';

export const providersArea = defineArea({
  id: 'providers',
  order: 50,
  base: PROVIDERS_PATH,
  guard: 'route.serviceproviders',
  load: () => import('./index'),
  screens: [
    { permission: 'menu.serviceProviders', list: PROVIDER_LIST, render: (s) => <s.ProviderListPage /> },
    { path: 'add', permission: 'serviceProviders.create', render: (s) => <s.AddProviderPage /> },
    { path: 'verify', permission: 'menu.verify', render: (s) => <s.VerifyPage /> },
    { path: 'rejected', permission: 'menu.rejected', render: (s) => <s.RejectedPage /> },
    { path: ':spId', permission: 'serviceProviders.read', render: (s) => <s.ProviderPage /> },
    { path: ':spId/edit', permission: 'serviceProviders.write', render: (s) => <s.EditProviderPage /> },
  ],
  menu: [
    { id: 'spList', group: 'sp', labelId: 'menu.spList', to: PROVIDERS_PATH, icon: BusinessIcon, permission: 'menu.serviceProviders' },
    {
      id: 'services',
      group: 'sp',
      labelId: 'menu.services',
      to: SERVICES_PATH,
      icon: MiscellaneousServicesIcon,
      permission: 'menu.services',
    },
    { id: 'verify', group: 'sp', labelId: 'menu.verify', to: verifyPath, icon: VerifiedIcon, permission: 'menu.verify', badge: 'pending' },
    {
      id: 'rejected',
      group: 'sp',
      labelId: 'menu.rejected',
      to: rejectedPath,
      icon: BlockIcon,
      permission: 'menu.rejected',
      badge: 'rejected',
    },
    {
      id: 'addSp',
      group: 'sp',
      labelId: 'menu.addServiceProvider',
      to: addProviderPath,
      icon: AddBusinessIcon,
      permission: 'menu.addServiceProvider',
    },
  ],
});
