// The services list's grid, declared apart from its screen so the app can ask its first page
// before the screen's code is there (src/app/listPrefetch.ts).
import { service } from '../../../schemas/index';
import type { ListScreen } from '../../components/entity/firstQuery';

export const SERVICE_LIST = {
  entity: service,
  columns: ['name', 'category', 'serviceType', 'territory', 'status', 'createdAt'],
} as const satisfies ListScreen;
