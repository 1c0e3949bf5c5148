// How a feature hands its screens to the app's route table: paths relative to the area's
// base route, with the permission of schemas/roles.ts each one needs (the app adds the guard).
import type { ReactNode } from 'react';
import type { Permission } from './permissions';

export interface FeatureRoute {
  /** Relative path, e.g. 'add' or ':spId/edit'; absent for the index route. */
  path?: string;
  permission?: Permission;
  element: ReactNode;
}
