// Saving a job with its images and its other-job rows, online and offline, through the data
// layer: the job first, then its rows one by one (parent before child, in the order entered).
// A row that fails does not undo the job: the form keeps it and a second save sends only what
// is still missing.
import { job, otherJob } from '../../../schemas/index';
import { messageOf } from '../../components/entity';
import type { ImageChanges } from '../../components/images';
import type { DataLayer } from '../../lib/data';
import { t } from '../../lib/session';
import { hasWork, rowValues, type OtherJobRow } from './otherJobRows';
import { isLocalOnly, type JobDoc } from './useJobData';

export interface SaveInput {
  data: DataLayer;
  /** Saves on this device only (children of a job not uploaded yet). */
  local: DataLayer;
  jbId: string;
  /** The job as stored before this save; null for a new one. */
  current: JobDoc | null;
  /** The version of the job the form was opened on (see DataLayer.update). */
  basedOn?: string;
  values: Record<string, unknown>;
  images: ImageChanges;
  rows: readonly OtherJobRow[];
}

export interface RowFailure {
  key: string;
  message: string;
}

export interface SaveResult {
  job: JobDoc;
  /** Rows handled, by key, with true when only this device has them. */
  rowsDone: Map<string, boolean>;
  rowFailures: RowFailure[];
}

/** The rows did not all save; the job did. */
export class OtherJobsNotSaved extends Error {
  constructor(readonly result: SaveResult) {
    super(
      t('jobs.error.otherJobsText', { count: result.rowFailures.length, message: result.rowFailures.map((f) => f.message).join('; ') }),
    );
    this.name = 'OtherJobsNotSaved';
  }
}

/** The job's values with each removed image slot as null (the data layer empties it: the
 * local copy waiting here, and the server's through `removeImages`, at once online or with
 * the upload offline). */
function withRemovals(input: SaveInput): Record<string, unknown> {
  return { ...input.values, ...Object.fromEntries(input.images.removeImages.map((slot) => [slot, null])) };
}

async function saveRecord(input: SaveInput): Promise<JobDoc> {
  const images = input.images.images;
  if (input.current) return input.data.update(job, input.jbId, withRemovals(input), images, { basedOn: input.basedOn });
  return input.data.create(job, { ...input.values, jb_Id: input.jbId }, images);
}

/** One row: discarded, created (on this device when its job is) or updated. Answers whether
 * only this device has it now. */
async function saveRow(input: SaveInput, saved: JobDoc, row: OtherJobRow): Promise<boolean> {
  if (row.removed) {
    await input.data.remove(otherJob, row.key);
    return true;
  }
  if (row.saved === null) {
    const layer = isLocalOnly(saved) ? input.local : input.data;
    const doc = await layer.create(otherJob, { ...rowValues(row), jb_Id: input.jbId, jb_oth_Id: row.key });
    return isLocalOnly(doc);
  }
  const doc = await input.data.update(otherJob, row.key, rowValues(row));
  return isLocalOnly(doc);
}

/** Saves the job, then every row that has work. Throws when the job fails (nothing of the
 * rows is tried) and OtherJobsNotSaved when only rows failed. */
export async function saveJob(input: SaveInput): Promise<SaveResult> {
  const saved = await saveRecord(input);
  const result: SaveResult = { job: saved, rowsDone: new Map(), rowFailures: [] };
  for (const row of input.rows) {
    if (!hasWork(row)) continue;
    try {
      result.rowsDone.set(row.key, await saveRow(input, saved, row));
    } catch (error) {
      result.rowFailures.push({ key: row.key, message: messageOf(error) });
    }
  }
  if (result.rowFailures.length) throw new OtherJobsNotSaved(result);
  return result;
}
