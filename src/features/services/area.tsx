// The services area (under /serviceproviders, product.md §2 route table): services, their
// apprenticeships and trainings. Reading follows the Services menu (product.md §6); adding and
// editing need the providers' write right, as the API does. Its menu entry is in the Service
// Providers group (providers/area.tsx).
import { defineArea } from '../../components/area';
import { SERVICE_LIST } from './list';
import { SERVICES_PATH } from './paths';

export const servicesArea = defineArea({
  id: 'services',
  order: 60,
  base: SERVICES_PATH,
  guard: 'route.serviceproviders',
  load: () => import('./index'),
  screens: [
    { permission: 'menu.services', list: SERVICE_LIST, render: (s) => <s.ServiceListPage /> },
    { path: 'add', permission: 'serviceProviders.write', render: (s) => <s.ServiceAddPage /> },
    { path: ':id', permission: 'menu.services', render: (s) => <s.ServicePage /> },
    { path: ':id/edit', permission: 'serviceProviders.write', render: (s) => <s.ServiceEditPage /> },
    { path: ':id/appr/add', permission: 'serviceProviders.write', render: (s) => <s.TrainingFormPage kind="appr" mode="add" /> },
    { path: ':id/appr/:key/edit', permission: 'serviceProviders.write', render: (s) => <s.TrainingFormPage kind="appr" mode="edit" /> },
    { path: ':id/voc/add', permission: 'serviceProviders.write', render: (s) => <s.TrainingFormPage kind="voc" mode="add" /> },
    { path: ':id/voc/:key/edit', permission: 'serviceProviders.write', render: (s) => <s.TrainingFormPage kind="voc" mode="edit" /> },
  ],
});
