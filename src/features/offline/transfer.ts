// Export and import of pending records (ADR-0018): a file the user keeps, so a broken
// device's work can be brought to another one and uploaded from there. The file is sealed for
// the user's own devices (src/lib/vault/exportSeal.ts).
import type { IcrsDatabase } from '../../lib/data';
import { downloadText } from '../../lib/ui';
import { exportPending, importPending, type PendingExport } from '../../lib/sync';
import { openExport, sealExport } from '../../lib/vault';

/** Number of records in an export (the engine's `PendingExport`: records by table). */
export function countInExport(json: string): number {
  try {
    const { records } = JSON.parse(json) as Partial<PendingExport>;
    if (!records || typeof records !== 'object') return 0;
    return Object.values(records).reduce((n, docs) => n + (Array.isArray(docs) ? docs.length : 0), 0);
  } catch {
    return 0; // not ours to judge: the engine made it
  }
}

function stamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-${pad(date.getHours())}${pad(date.getMinutes())}`;
}

/** Writes the pending records (with images) to a downloaded `.json` file. */
export async function downloadPending(
  db: IcrsDatabase,
  user: { userId: string; userName: string },
): Promise<{ file: string; count: number }> {
  const json = await exportPending(db);
  const userName = user.userName;
  const safeUser = userName.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40) || 'user';
  const file = `icrs-pending-${safeUser}-${stamp(new Date())}.json`;
  // Clients' records leave the browser only sealed (ADR-0020), for this user's devices.
  downloadText(await sealExport(user.userId, json), file, 'application/json');
  return { file, count: countInExport(json) };
}

/** Reads a file chosen by the user and adds its records to the local store. */
export async function importFile(db: IcrsDatabase, file: File, userId: string): Promise<{ imported: number; skipped: number }> {
  return importPending(db, await openExport(userId, await file.text()));
}
