// How many server records use each item of a lookup list, shown on the list screen (ADR-0030:
// "an item that records use is never deleted": none is, see index.ts). The places an item id can be stored come from the entity declarations (every
// lookup field of that list, deleted records included: they may be restored or reported on),
// plus the two the declarations hold inside structured data: a client's organisational help
// (BspData.orgHelp[].tbl_Id) and an item's `parent` in another list (a service type's category).
import { LOOKUP_KEYS, serverEntities, type LookupKey } from '../../../schemas/index';
import { ident } from '../../../schemas/derive/sql';
import type { Queryable } from '../../db/index';

interface Place {
  /** SQL answering one row per use of an item id, as column "item". */
  sql: string;
}

function lookupPlaces(key: string): Place[] {
  const places: Place[] = [];
  for (const entity of serverEntities) {
    for (const [name, field] of Object.entries(entity.fields)) {
      if (field.kind === 'lookup' && field.list === key) {
        places.push({ sql: `SELECT ${ident(name)}::bigint AS "item" FROM ${ident(entity.table)} WHERE ${ident(name)} IS NOT NULL` });
      }
    }
  }
  return places;
}

/** Uses hidden in structured data, which the lookup fields above do not declare. */
const STRUCTURED: Partial<Record<LookupKey, Place[]>> = {
  orgHelp: [
    {
      sql: `SELECT (help->>'tbl_Id')::bigint AS "item" FROM "tbl_profiles",
              jsonb_array_elements(COALESCE("BspData"->'orgHelp', '[]'::jsonb)) AS help
            WHERE jsonb_typeof("BspData"->'orgHelp') = 'array'`,
    },
  ],
};

/** Items of other lists name their parent item (service type → category). */
const PARENT_OF: Partial<Record<LookupKey, LookupKey>> = { category: 'serviceType' };

function isLookupKey(key: string): key is LookupKey {
  return (LOOKUP_KEYS as readonly string[]).includes(key);
}

/** Lists whose uses the server can count (some declared field refers to them). */
export function usageIsKnown(key: string): boolean {
  return isLookupKey(key) && (lookupPlaces(key).length > 0 || STRUCTURED[key] !== undefined || PARENT_OF[key] !== undefined);
}

/** How many records use each item of list `key` ({itemId: count}; unused items are absent). */
export async function itemUsage(db: Queryable, key: string): Promise<Map<number, number>> {
  const places = [...lookupPlaces(key), ...(isLookupKey(key) ? (STRUCTURED[key] ?? []) : [])];
  const child = isLookupKey(key) ? PARENT_OF[key] : undefined;
  const params: unknown[] = [];
  if (child) {
    params.push(child);
    places.push({
      sql: `SELECT (item->>'parent')::bigint AS "item" FROM "lists", jsonb_array_elements("items") AS item
            WHERE "key" = $1 AND item ? 'parent'`,
    });
  }
  const counts = new Map<number, number>();
  if (!places.length) return counts;
  const rows = await db.query<{ item: string | number; n: number }>(
    `SELECT "item", count(*)::int AS n FROM (${places.map((p) => p.sql).join(' UNION ALL ')}) AS uses
     WHERE "item" IS NOT NULL GROUP BY "item"`,
    params,
  );
  for (const row of rows) counts.set(Number(row.item), row.n);
  return counts;
}
