// The reports area (product.md §2 route table: reports), behind route.reports. A server screen:
// with no connection it says so under its title.
import AssessmentIcon from '@mui/icons-material/Assessment';
import { defineArea } from '../../components/area';
import { OnlineOnly } from '../../components/OnlineOnly';
import { REPORTS_PATH } from './paths';

export const reportsArea = defineArea({
  id: 'reports',
  order: 100,
  base: REPORTS_PATH,
  guard: 'route.reports',
  load: () => import('./index'),
  screens: [
    {
      render: (s) => (
        <OnlineOnly titleId="screens.reports">
          <s.ReportsPage />
        </OnlineOnly>
      ),
    },
  ],
  menu: [{ id: 'reports', group: 'more', labelId: 'menu.reports', to: REPORTS_PATH, icon: AssessmentIcon, permission: 'menu.reports' }],
});
