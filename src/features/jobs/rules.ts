// Rules of the job screens that the schema cannot state alone.
import type { Problem } from '../../components/entity';

/** Today on the device, 'YYYY-MM-DD' in local time: the day the user lives in. */
export function todayIso(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A new posting cannot close before it is published: its deadline is today or later. Edits
 * are not checked, so an old posting whose deadline has passed can still be corrected. */
export function validateNewJob(values: Record<string, unknown>, today = todayIso()): Record<string, Problem> {
  const deadline = values.deadline;
  if (typeof deadline === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(deadline) && deadline < today) {
    return { deadline: { id: 'jobs.error.pastDeadline' } };
  }
  return {};
}

/** Has the last day to apply gone by? */
export function isPastDeadline(deadline: unknown, today = todayIso()): boolean {
  return typeof deadline === 'string' && deadline !== '' && deadline < today;
}
