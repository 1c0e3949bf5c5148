import type { FeatureRoute } from '../../lib/featureRoutes';
import { ServiceAddPage } from './ServiceAddPage';
import { ServiceEditPage } from './ServiceEditPage';
import { ServiceListPage } from './ServiceListPage';
import { ServicePage } from './ServicePage';
import { TrainingFormPage } from './TrainingFormPage';

/** Screens under /serviceproviders/services: services, their apprenticeships and trainings.
 * Reading follows the Services menu (product.md §6); adding and editing need the providers' write
 * right, as the API does. */
export const serviceRoutes: FeatureRoute[] = [
  { path: 'services', permission: 'menu.services', element: <ServiceListPage /> },
  { path: 'services/add', permission: 'serviceProviders.write', element: <ServiceAddPage /> },
  { path: 'services/:id', permission: 'menu.services', element: <ServicePage /> },
  { path: 'services/:id/edit', permission: 'serviceProviders.write', element: <ServiceEditPage /> },
  { path: 'services/:id/appr/add', permission: 'serviceProviders.write', element: <TrainingFormPage kind="appr" mode="add" /> },
  { path: 'services/:id/appr/:key/edit', permission: 'serviceProviders.write', element: <TrainingFormPage kind="appr" mode="edit" /> },
  { path: 'services/:id/voc/add', permission: 'serviceProviders.write', element: <TrainingFormPage kind="voc" mode="add" /> },
  { path: 'services/:id/voc/:key/edit', permission: 'serviceProviders.write', element: <TrainingFormPage kind="voc" mode="edit" /> },
];
