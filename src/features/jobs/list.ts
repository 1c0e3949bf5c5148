// The jobs list's grid, declared apart from its screen so the app can ask its first page
// before the screen's code is there (src/app/listPrefetch.ts).
import { job } from '../../../schemas/index';
import type { ListScreen } from '../../components/entity/firstQuery';

export const JOB_LIST = {
  entity: job,
  columns: ['title', 'employer', 'sector', 'territory', 'positions', 'deadline', 'open'],
} as const satisfies ListScreen;
