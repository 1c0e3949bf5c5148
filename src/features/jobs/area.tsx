// The jobs area (product.md §2 route table: availablejobs): its screens behind route.availablejobs,
// the list's first page asked ahead, and the Employers menu. Reading needs jobs.read, saving
// jobs.write, like the API.
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import WorkIcon from '@mui/icons-material/Work';
import { defineArea } from '../../components/area';
import { JOB_LIST } from './list';
import { JOBS_PATH, jobPaths } from './paths';

export const jobsArea = defineArea({
  id: 'jobs',
  order: 70,
  base: JOBS_PATH,
  guard: 'route.availablejobs',
  load: () => import('./index'),
  screens: [
    { permission: 'jobs.read', list: JOB_LIST, render: (s) => <s.JobListPage /> },
    { path: 'add', permission: 'jobs.write', render: (s) => <s.JobAddPage /> },
    { path: ':jbId', permission: 'jobs.read', render: (s) => <s.JobPage /> },
    { path: ':jbId/edit', permission: 'jobs.write', render: (s) => <s.JobEditPage /> },
  ],
  menu: [
    { id: 'jobs', group: 'employers', labelId: 'menu.availableJobs', to: jobPaths.list, icon: WorkIcon, permission: 'menu.employers' },
    {
      id: 'addJob',
      group: 'employers',
      labelId: 'menu.addAvailableJobs',
      to: jobPaths.add,
      icon: PlaylistAddIcon,
      permission: 'menu.employers',
    },
  ],
});
