// The testing screen (product.md §2 route table: testing), behind route.testing.
import { defineArea } from '../../components/area';

export const testingArea = defineArea({
  id: 'testing',
  order: 130,
  base: '/testing',
  guard: 'route.testing',
  load: () => import('./index'),
  screens: [{ render: (s) => <s.TestingPage /> }],
});
