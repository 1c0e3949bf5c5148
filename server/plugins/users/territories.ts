// A user's territories are items of the `territory` lookup list (docs/product.md §6.5.1): an id
// that is not one is refused with the ids named, in the user's language, nothing written.
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/index';
import { fieldError } from '../../lib/errors';

/** Throws 400 `users.unknownTerritories` when `territories` names ids the list does not hold. */
export async function assertTerritories(db: Queryable, request: FastifyRequest, territories: readonly number[] | null | undefined) {
  if (!territories?.length) return;
  const known = await db.query<{ id: number }>(
    `SELECT (item->>'id')::int AS "id" FROM "lists", jsonb_array_elements("items") AS item
     WHERE "key" = 'territory' AND (item->>'id')::int = ANY($1::int[])`,
    [[...territories]],
  );
  const found = new Set(known.map((k) => Number(k.id)));
  const unknown = territories.filter((id) => !found.has(id));
  if (unknown.length) throw fieldError(request, 'territories', 'users.unknownTerritories', { ids: unknown.join(', ') });
}
