// Server copies this device owes itself (docs/offline-contract.md "Pull replication").
//
// The pull feed moves on from a checkpoint. A row it meets while the local document is pending is
// held, to be written once that document settles; and a local edit of a server record replaces
// the device's synced copy of it. When such an edit is dropped (discarded, or a conflict settled
// in favour of the server's copy), or when the page is reloaded before a held row was written,
// the feed has already passed the server's row and would never bring it again: the record would
// be missing on this device until someone changed it on the server. Its key is therefore kept
// here, in the store, and the replication asks the server for it by key once the local document
// is no longer pending.
import type { Observable } from 'rxjs';
import type { IcrsDatabase } from './collections';

interface OwedKeys {
  keys: string[];
}

/** One local document per table (local documents cannot be listed by a prefix). */
const owedId = (table: string) => `pull-owed|${table}`;

async function modifyOwed(db: IcrsDatabase, table: string, change: (keys: Set<string>) => void): Promise<void> {
  const id = owedId(table);
  let doc = await db.getLocal<OwedKeys>(id);
  if (!doc) {
    // Another tab may insert it meanwhile: then its document is modified below.
    doc = await db.insertLocal<OwedKeys>(id, { keys: [] }).catch(() => db.getLocal<OwedKeys>(id));
  }
  // incrementalModify runs again on the newest state when another write came first.
  await doc?.incrementalModify((data) => {
    const keys = new Set(data.keys);
    change(keys);
    return { ...data, keys: [...keys] };
  });
}

/** Notes that this device needs the server's copy of these records. */
export async function oweServerCopy(db: IcrsDatabase, table: string, keys: readonly string[]): Promise<void> {
  if (keys.length) await modifyOwed(db, table, (owed) => keys.forEach((key) => owed.add(key)));
}

/** The server's copy of these records is on the device (or they are pending again). */
export async function settleOwed(db: IcrsDatabase, table: string, keys: readonly string[]): Promise<void> {
  if (!keys.length) return;
  const owed = await owedKeys(db, table);
  if (keys.some((key) => owed.includes(key))) await modifyOwed(db, table, (set) => keys.forEach((key) => set.delete(key)));
}

export async function owedKeys(db: IcrsDatabase, table: string): Promise<string[]> {
  const doc = await db.getLocal<OwedKeys>(owedId(table));
  return (doc?.get('keys') as string[] | undefined) ?? [];
}

/** Emits whenever the owed keys of a table change (in any tab). */
export function owedChanges$(db: IcrsDatabase, table: string): Observable<unknown> {
  return db.getLocal$<OwedKeys>(owedId(table));
}
