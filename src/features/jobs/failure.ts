// How the job screens tell a failed save (the shared rule, src/lib/data/saveFailure.ts).
import { reportSaveFailure } from '../../lib/data';

/** Shows `error` under the title `titleId` unless the interceptor already did. */
export function reportFailure(titleId: string, error: unknown): void {
  reportSaveFailure(titleId, error, 'jobs.error.conflict');
}
