// The client a private record belongs to (ADR-0036): its key and its organisation.
import type { EntityShape } from '../../../schemas/define';
import { profile } from '../../../schemas/index';
import type { Queryable, Row } from '../../db/index';

/** The organisation of the client `record` (of `entity`) belongs to. */
export async function clientLocation(db: Queryable, entity: EntityShape, record: Row): Promise<number | null> {
  if (entity === profile) return (record.location as number | null) ?? null;
  const [row] = await db.query<{ location: number | null }>('SELECT "location" FROM "tbl_profiles" WHERE "prof_Id" = $1', [
    record[entity.parent?.field ?? 'prof_Id'],
  ]);
  return row?.location ?? null;
}
