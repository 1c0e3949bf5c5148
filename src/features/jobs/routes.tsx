import type { FeatureRoute } from '../../lib/featureRoutes';
import { JobAddPage, JobEditPage } from './JobFormPage';
import { JobListPage } from './JobListPage';
import { JobPage } from './JobPage';

/** Screens under /availablejobs (the area itself is guarded by route.availablejobs): the job
 * list, a job, add and edit. Reading needs jobs.read, saving jobs.write, like the API. */
export const jobRoutes: FeatureRoute[] = [
  { permission: 'jobs.read', element: <JobListPage /> },
  { path: 'add', permission: 'jobs.write', element: <JobAddPage /> },
  { path: ':jbId', permission: 'jobs.read', element: <JobPage /> },
  { path: ':jbId/edit', permission: 'jobs.write', element: <JobEditPage /> },
];
