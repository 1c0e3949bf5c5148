// Files picked in a form not saved yet (a client's photo and documents during a registration),
// kept so that an unfinished form survives a reload with its files: in the signed-in user's own
// IndexedDB database (`icrs_drafts-<userId>`), each file's name, type and bytes sealed under the
// vault's data key (ADR-0020). Forgotten when the form is saved or discarded; unreadable, and
// not listed, for anyone else.
import Dexie, { type EntityTable } from 'dexie';
import { openBytes, openJson, openVaultUser, sealBytes, sealJson } from './vault';

interface SealedFile {
  /** `<draft key>|<slot>` */
  id: string;
  draft: string;
  /** `{slot, name, type}`, sealed. */
  about: string;
  bytes: Uint8Array<ArrayBuffer>;
}

export interface DraftFileInput {
  slot: string;
  name?: string;
  blob: Blob;
}

type DraftDb = Dexie & { files: EntityTable<SealedFile, 'id'> };
const LEGACY = 'icrs_drafts';
const databases = new Map<string, DraftDb>();

function dbName(userId: string): string {
  return `${LEGACY}-${userId}`;
}

/** The open vault's user's database; none while locked. */
function db(): DraftDb | null {
  const userId = openVaultUser();
  if (!userId) return null;
  let database = databases.get(userId);
  if (!database) {
    database = new Dexie(dbName(userId)) as DraftDb;
    database.version(1).stores({ files: 'id, draft' });
    databases.set(userId, database);
  }
  return database;
}

/** The last write of each draft's files asked for, running or waiting. */
const writes = new Map<string, Promise<void>>();

/** Runs the writes of one draft's files in the order they were asked: sealing takes longer for
 * more files, so an earlier, smaller write could otherwise land last and drop the file picked
 * after it, or bring back files a clear had just removed. */
function inOrder(draft: string, job: () => Promise<void>): Promise<void> {
  const write = (writes.get(draft) ?? Promise.resolve()).then(job);
  writes.set(draft, write);
  void write.then(() => {
    if (writes.get(draft) === write) writes.delete(draft);
  });
  return write;
}

/** The files of draft `draft` become exactly `files`. Failures (private mode, quota, a locked
 * vault) only cost the safety net: the form goes on. */
export function keepDraftFiles(draft: string, files: readonly DraftFileInput[]): Promise<void> {
  return inOrder(draft, () => writeDraftFiles(draft, files));
}

async function writeDraftFiles(draft: string, files: readonly DraftFileInput[]): Promise<void> {
  const database = db();
  if (!database) return;
  try {
    const sealed = await Promise.all(
      files.map(async (f) => ({
        id: `${draft}|${f.slot}`,
        draft,
        about: await sealJson({ slot: f.slot, name: f.name ?? f.slot, type: f.blob.type }),
        bytes: await sealBytes(new Uint8Array(await f.blob.arrayBuffer())),
      })),
    );
    await database.transaction('rw', database.files, async () => {
      await database.files.where('draft').equals(draft).delete();
      await database.files.bulkPut(sealed);
    });
  } catch {
    // Storage refused: the typed values are still kept.
  }
}

export async function loadDraftFiles(draft: string): Promise<DraftFileInput[]> {
  const database = db();
  if (!database) return [];
  try {
    const rows = await database.files.where('draft').equals(draft).toArray();
    return await Promise.all(
      rows.map(async (row) => {
        const about = await openJson<{ slot: string; name: string; type: string }>(row.about);
        return { slot: about.slot, name: about.name, blob: new Blob([await openBytes(row.bytes)], { type: about.type }) };
      }),
    );
  } catch {
    return [];
  }
}

export function clearDraftFiles(draft: string): Promise<void> {
  return inOrder(draft, async () => {
    try {
      await db()?.files.where('draft').equals(draft).delete();
    } catch {
      // Nothing kept.
    }
  });
}

/** Removes a user's draft files from this device (and the unsealed store of older versions). */
export async function removeDraftFiles(userId: string): Promise<void> {
  databases.get(userId)?.close();
  databases.delete(userId);
  await Promise.all([Dexie.delete(dbName(userId)), Dexie.delete(LEGACY)]).catch(() => undefined);
}
