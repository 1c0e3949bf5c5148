import { ComingPage } from '../coming';
import type { FeatureRoute } from '../../lib/featureRoutes';

/** Screens under /serviceproviders/services: services, their apprenticeships and trainings. */
export const serviceRoutes: FeatureRoute[] = [
  { path: 'services', permission: 'menu.services', element: <ComingPage titleId="screens.services" /> },
];
