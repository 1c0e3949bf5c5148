import { ComingPage } from '../coming';
import type { FeatureRoute } from '../../lib/featureRoutes';

/** Screens under /serviceproviders: the provider list, a provider, add/edit, verification. */
export const providerRoutes: FeatureRoute[] = [
  { element: <ComingPage titleId="screens.serviceProviders" /> },
  { path: 'add', permission: 'menu.addServiceProvider', element: <ComingPage titleId="screens.addServiceProvider" /> },
  { path: 'verify', permission: 'menu.verify', element: <ComingPage titleId="screens.verify" /> },
  { path: 'rejected', permission: 'menu.rejected', element: <ComingPage titleId="screens.rejected" /> },
];
