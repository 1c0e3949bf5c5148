import { ComingPage } from '../coming';
import type { FeatureRoute } from '../../lib/featureRoutes';

/** Screens under /availablejobs: the job list, a job, add/edit. */
export const jobRoutes: FeatureRoute[] = [
  { element: <ComingPage titleId="screens.availableJobs" /> },
  { path: 'add', element: <ComingPage titleId="screens.addAvailableJob" /> },
];
