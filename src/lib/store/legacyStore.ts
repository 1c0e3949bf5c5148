// The store of versions before the sealed store (ADR-0020): one `icrs_db` for every user of the browser, client
// data in clear. Its pending records are not lost at the upgrade: the user who collected them
// (named by the old `icrs.unsent` summary) takes them into their own, sealed store at their
// next sign-in, and the old store is then removed whole (its mirror is pulled again). Pending
// records of another user wait in it for that user. Read below RxDB (RxDB's open-core allows
// one store's collections per page), from each collection's Dexie database
// `rxdb-dexie-icrs_db--<version>--<collection>`, table `docs`.
import { collectionName, collectionOf, DB_NAME, OFFLINE_ENTITIES, type IcrsDatabase } from './collections';
import { databaseNames, deleteDatabase, openDatabase, request } from './deviceData';

const PREFIX = `rxdb-dexie-${DB_NAME}--`;
const SUMMARY = 'icrs.unsent';

function legacyOwner(): string | null {
  try {
    const summary = JSON.parse(localStorage.getItem(SUMMARY) ?? 'null') as { userId?: unknown; count?: unknown } | null;
    return summary && typeof summary.userId === 'string' && summary.count !== 0 ? summary.userId : null;
  } catch {
    return null;
  }
}

async function pendingRows(name: string): Promise<Record<string, unknown>[]> {
  const db = await openDatabase(name);
  try {
    if (!db.objectStoreNames.contains('docs')) return [];
    const rows = (await request(db.transaction('docs', 'readonly').objectStore('docs').getAll())) as Record<string, unknown>[];
    return rows.filter((row) => row.syncState === 'pending' && row._deleted !== '1' && row._deleted !== true);
  } finally {
    db.close();
  }
}

/** The document of a stored row: RxDB's own fields left behind. */
function documentOf(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([name]) => !name.startsWith('_')));
}

/**
 * Takes the old shared store's pending records into `db` (the store of `userId`) when they are
 * this user's, then removes the old store. Answers how many records were taken.
 */
export async function adoptLegacyStore(db: IcrsDatabase, userId: string): Promise<number> {
  const names = (await databaseNames()).filter((name) => name.startsWith(PREFIX));
  if (names.length === 0) return 0;
  const owner = legacyOwner();
  if (owner !== null && owner !== userId) return 0; // another user's records wait for them
  let taken = 0;
  for (const entity of OFFLINE_ENTITIES) {
    const suffix = `--${collectionName(entity)}`;
    for (const name of names.filter((n) => n.endsWith(suffix))) {
      const docs = (await pendingRows(name)).map(documentOf);
      if (docs.length === 0) continue;
      const collection = collectionOf(db, entity);
      const held = new Set((await collection.findByIds(docs.map((doc) => String(doc[collection.schema.primaryPath]))).exec()).keys());
      const fresh = docs.filter((doc) => !held.has(String(doc[collection.schema.primaryPath])));
      const { error } = await collection.bulkInsert(fresh);
      if (error.length) throw new Error(`${error.length} records of the previous version could not be taken into this user's store`);
      taken += fresh.length;
    }
  }
  await Promise.all(names.map(deleteDatabase));
  localStorage.removeItem(SUMMARY);
  return taken;
}
