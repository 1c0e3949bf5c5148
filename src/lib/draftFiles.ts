// Files picked in a form not saved yet (a client's photo and documents during a registration),
// kept in their own small IndexedDB database so that an unfinished form survives a reload with
// its files: localStorage holds only text, and the record store (icrs_db) only what is to be
// uploaded. Forgotten when the form is saved or discarded.
import Dexie, { type EntityTable } from 'dexie';

interface DraftFile {
  /** `<draft key>|<slot>` */
  id: string;
  draft: string;
  slot: string;
  name: string;
  blob: Blob;
}

export interface DraftFileInput {
  slot: string;
  name?: string;
  blob: Blob;
}

let database: (Dexie & { files: EntityTable<DraftFile, 'id'> }) | null = null;

function db() {
  if (!database) {
    database = new Dexie('icrs_drafts') as Dexie & { files: EntityTable<DraftFile, 'id'> };
    database.version(1).stores({ files: 'id, draft' });
  }
  return database;
}

/** The files of draft `draft` become exactly `files`. Failures (private mode, quota) only cost
 * the safety net: the form goes on. */
export async function keepDraftFiles(draft: string, files: readonly DraftFileInput[]): Promise<void> {
  try {
    await db().transaction('rw', db().files, async () => {
      await db().files.where('draft').equals(draft).delete();
      await db().files.bulkPut(files.map((f) => ({ id: `${draft}|${f.slot}`, draft, slot: f.slot, name: f.name ?? f.slot, blob: f.blob })));
    });
  } catch {
    // Storage refused: the typed values are still kept.
  }
}

export async function loadDraftFiles(draft: string): Promise<DraftFileInput[]> {
  try {
    const rows = await db().files.where('draft').equals(draft).toArray();
    return rows.map((row) => ({ slot: row.slot, name: row.name, blob: row.blob }));
  } catch {
    return [];
  }
}

export async function clearDraftFiles(draft: string): Promise<void> {
  try {
    await db().files.where('draft').equals(draft).delete();
  } catch {
    // Nothing kept.
  }
}
