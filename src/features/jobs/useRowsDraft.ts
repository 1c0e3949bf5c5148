// The other-job rows of the job form survive a reload like the form's own fields (EntityForm
// keeps those): the rows with unsaved work, and the key of a new job, so a save repeated after
// a reload is the same record, never a second one.
import { useEffect, useRef, useState } from 'react';
import { uuidv7 } from '../../../schemas/ids';
import { clearDraft, draftKey, loadDraft } from '../../components/entity';
import { saveDraft } from '../../components/entity/drafts';
import { hasWork, type OtherJobRow } from './otherJobRows';

interface RowsDraft {
  jbId: string;
  rows: OtherJobRow[];
}

function isRow(value: unknown): value is OtherJobRow {
  const v = value as Partial<OtherJobRow> | null;
  return typeof v === 'object' && v !== null && typeof v.key === 'string' && typeof v.values === 'object' && v.values !== null;
}

function readDraft(key: string): RowsDraft | null {
  const values = loadDraft(key)?.values;
  if (!values || typeof values.jbId !== 'string' || !Array.isArray(values.rows)) return null;
  return { jbId: values.jbId, rows: values.rows.filter(isRow) };
}

/** Loaded rows with the draft's edits over them, and the draft's new rows after them. */
function merge(loaded: readonly OtherJobRow[], draft: readonly OtherJobRow[]): OtherJobRow[] {
  const edits = new Map(draft.map((row) => [row.key, row]));
  const merged = loaded.map((row) => {
    const edit = edits.get(row.key);
    return edit ? { ...row, values: edit.values, removed: edit.removed && row.localOnly } : row;
  });
  const known = new Set(loaded.map((row) => row.key));
  return [...merged, ...draft.filter((row) => row.saved === null && !known.has(row.key))];
}

export interface RowsDraftState {
  jbId: string;
  rows: OtherJobRow[];
  setRows: (rows: OtherJobRow[]) => void;
  /** Saved or cancelled: forget the draft. */
  clear: () => void;
  restored: boolean;
}

/** `recordKey` is the job edited (absent for a new one); `loaded` its stored rows. */
export function useRowsDraft(recordKey: string | undefined, loaded: () => OtherJobRow[]): RowsDraftState {
  const key = `${draftKey('job', recordKey)}:otherJobs`;
  const [initial] = useState(() => {
    const draft = readDraft(key);
    const base = loaded();
    const jbId = recordKey ?? draft?.jbId ?? uuidv7();
    return { jbId, rows: draft ? merge(base, draft.rows) : base, restored: Boolean(draft?.rows.some(hasWork)) };
  });
  const [rows, setRows] = useState<OtherJobRow[]>(initial.rows);
  const closed = useRef(false);

  useEffect(() => {
    if (closed.current) return;
    const work = rows.filter(hasWork);
    // A new job keeps its key in the draft as soon as anything is typed in the rows.
    if (work.length) saveDraft(key, { values: { jbId: initial.jbId, rows: work }, savedAt: Date.now() });
    else clearDraft(key);
  }, [key, rows, initial.jbId]);

  return {
    jbId: initial.jbId,
    rows,
    setRows: (next) => {
      closed.current = false;
      setRows(next);
    },
    clear: () => {
      closed.current = true;
      clearDraft(key);
    },
    restored: initial.restored,
  };
}
