// The lookup lists of server/seed/lists.ts, written on start. Each list is inserted only when
// its key is absent (ON CONFLICT DO NOTHING): a first start fills the empty table, later
// starts change nothing (an administrator's edits are never overwritten), two processes
// starting together cannot double a list, and a list added to the seed in a later version
// appears on the next start.
import { uuidv7 } from '../../../schemas/ids';
import type { Queryable } from '../../db/index';
import { seedLists, type SeedList } from '../../seed/lists';

// Milliseconds, as JSON carries them: PUT /lists/{id} compares the `updatedAt` it is sent.
const NOW = "date_trunc('milliseconds', now())";

/** Inserts the missing lists; answers the keys it inserted. */
export async function seedLookupLists(db: Queryable, lists: readonly SeedList[] = seedLists): Promise<string[]> {
  if (lists.length === 0) return [];
  const params: unknown[] = [];
  const tuples = lists.map((list) => {
    params.push(uuidv7(), list.key, JSON.stringify(list.items));
    const n = params.length;
    return `($${n - 2}, $${n - 1}, $${n}::jsonb, ${NOW}, ${NOW})`;
  });
  const rows = await db.query<{ key: string }>(
    `INSERT INTO "lists" ("id", "key", "items", "createdAt", "updatedAt") VALUES ${tuples.join(', ')}
     ON CONFLICT ("key") DO NOTHING RETURNING "key"`,
    params,
  );
  return rows.map((row) => row.key);
}
