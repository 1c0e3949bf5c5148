// The other-job rows edited inside the job form (tbl_jobs_other): what each row holds, how it
// is checked (the same rules as the server, through validateValues) and what a save must do
// with it. Keys are made when a row is added, so saving again after a failure never stores a
// row twice.
import { otherJob } from '../../../schemas/index';
import { uuidv7 } from '../../../schemas/ids';
import { validateValues, type Problem } from '../../components/entity';
import { initialRaw } from '../../components/entity/formState';
import type { RawValues } from '../../components/entity/validation';
import type { OtherJobDoc } from './useJobData';

/** The fields of a row, in the order they are shown. */
export const ROW_FIELDS = ['title', 'positions', 'description', 'requirements'] as const;

export interface OtherJobRow {
  /** jb_oth_Id. */
  key: string;
  /** What the inputs hold. */
  values: RawValues;
  /** What is stored now (server or device); null for a row never saved. */
  saved: RawValues | null;
  /** Stored on this device only, never uploaded: it may still be discarded. */
  localOnly: boolean;
  /** Discard it at the next save (only rows that are new or local-only). */
  removed: boolean;
}

function pick(raw: RawValues): RawValues {
  return Object.fromEntries(ROW_FIELDS.map((name) => [name, raw[name]]));
}

export function newRow(): OtherJobRow {
  return { key: uuidv7(), values: pick(initialRaw(otherJob, ROW_FIELDS, {})), saved: null, localOnly: false, removed: false };
}

export function rowFromDoc(doc: OtherJobDoc): OtherJobRow {
  const values = pick(initialRaw(otherJob, ROW_FIELDS, doc));
  const localOnly = doc.syncState === 'pending' && doc.syncOp === 'create';
  return { key: doc.jb_oth_Id, values, saved: values, localOnly, removed: false };
}

export function rowProblems(row: OtherJobRow): Record<string, Problem> {
  return validateValues(otherJob, row.values).problems;
}

export function isChanged(row: OtherJobRow): boolean {
  return row.saved === null || JSON.stringify(pick(row.values)) !== JSON.stringify(pick(row.saved));
}

/** Rows that still need the server or the store: new, changed or to be discarded. */
export function hasWork(row: OtherJobRow): boolean {
  return row.removed ? row.saved !== null : isChanged(row);
}

/** May the user take this row out of the job? Rows on the server cannot be deleted (the API
 * has no delete for other jobs); new rows and rows still waiting on this device can. */
export function isRemovable(row: OtherJobRow): boolean {
  return row.saved === null || row.localOnly;
}

/** The rows whose inputs break a rule (removed rows are not checked). */
export function invalidRows(rows: readonly OtherJobRow[]): OtherJobRow[] {
  return rows.filter((row) => !row.removed && Object.keys(rowProblems(row)).length > 0);
}

/** The API values of a row (checked already). */
export function rowValues(row: OtherJobRow): Record<string, unknown> {
  return validateValues(otherJob, row.values).values;
}

/** After a save: saved rows record what is now stored (and whether only this device has
 * it, from `done`), discarded rows leave the list. */
export function afterSave(rows: readonly OtherJobRow[], done: ReadonlyMap<string, boolean>): OtherJobRow[] {
  return rows.flatMap((row) => {
    const localOnly = done.get(row.key);
    if (localOnly === undefined) return [row];
    if (row.removed) return [];
    return [{ ...row, saved: row.values, localOnly }];
  });
}
