// The clients list's grid, declared apart from its screen so the app can ask its first page
// before the screen's code is there (src/app/listPrefetch.ts).
import { profile } from '../../../schemas/index';
import type { ListScreen } from '../../components/entity/firstQuery';

export const CLIENT_LIST = {
  entity: profile,
  columns: ['prof_Reg_No', 'firstName', 'lastName', 'sex', 'birthDate', 'phone', 'territory', 'createdAt'],
} as const satisfies ListScreen;
