import type { FeatureRoute } from '../../lib/featureRoutes';
import { ClientAddPage, ClientEditPage } from './ClientFormPage';
import { ClientListPage } from './ClientListPage';
import { ClientPage } from './ClientPage';

/** Screens under /profiles (the area is guarded by route.profiles): the list, a new client, a
 * client's page and its edit form. Reading needs profiles.read, saving profiles.write, like the API. */
export const clientRoutes: FeatureRoute[] = [
  { permission: 'profiles.read', element: <ClientListPage /> },
  { path: 'add', permission: 'profiles.write', element: <ClientAddPage /> },
  { path: 'edit/:profId', permission: 'profiles.write', element: <ClientEditPage /> },
  { path: ':profId', permission: 'profiles.read', element: <ClientPage /> },
];
