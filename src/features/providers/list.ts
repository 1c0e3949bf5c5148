// The providers list's grid, declared apart from its screen so the app can ask its first page
// before the screen's code is there (src/app/listPrefetch.ts).
import { serviceProvider } from '../../../schemas/index';
import type { ListScreen } from '../../components/entity/firstQuery';

export const PROVIDER_LIST = {
  entity: serviceProvider,
  columns: ['sp_Name', 'sp_type', 'territory', 'sp_Address', 'contact', 'phone', 'createdAt'],
} as const satisfies ListScreen;
