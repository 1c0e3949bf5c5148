import type { FeatureRoute } from '../../lib/featureRoutes';
import { AddProviderPage, EditProviderPage } from './ProviderFormPage';
import { ProviderListPage } from './ProviderListPage';
import { ProviderPage } from './ProviderPage';
import { RejectedPage } from './RejectedPage';
import { VerifyPage } from './VerifyPage';

/** Screens under /serviceproviders (the app adds route.serviceproviders): the provider list, a
 * provider, add/edit, verification. Each sub-route also checks its own menu or action key, so
 * what the sidebar hides cannot be opened by its address either. */
export const providerRoutes: FeatureRoute[] = [
  { permission: 'menu.serviceProviders', element: <ProviderListPage /> },
  { path: 'add', permission: 'serviceProviders.create', element: <AddProviderPage /> },
  { path: 'verify', permission: 'menu.verify', element: <VerifyPage /> },
  { path: 'rejected', permission: 'menu.rejected', element: <RejectedPage /> },
  { path: ':spId', permission: 'serviceProviders.read', element: <ProviderPage /> },
  { path: ':spId/edit', permission: 'serviceProviders.write', element: <EditProviderPage /> },
];
