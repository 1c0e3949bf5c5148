// How stored documents move to a new schema version without loss. When an entity's offline
// shape changes, bump its `rxVersion` in schemas/ and add the step here: strategy N turns a
// version N-1 document into a version N one. A version with no step keeps documents as they are
// (fields added as optional need nothing), so no stored record is ever dropped by an upgrade.
// Steps also get removed documents (tombstones), whose image fields are empty strings
// (lightDeletes.ts): a step must not expect bytes there.
import type { MigrationStrategies } from 'rxdb';
import type { EntityShape } from '../../../schemas/define';

type Doc = Record<string, unknown>;
type Step = (doc: Doc) => Doc | Promise<Doc>;
/** Steps per collection table and target version. */
export type MigrationSteps = Readonly<Record<string, Readonly<Record<number, Step>>>>;

/** The steps of this version of the app. Empty until an offline schema changes. */
export const MIGRATION_STEPS: MigrationSteps = {};

/** RxDB's strategies for versions 1..rxVersion of `entity`: the declared step, else keep as is. */
export function migrationStrategiesFor(entity: EntityShape, steps: MigrationSteps = MIGRATION_STEPS): MigrationStrategies {
  const own = steps[entity.table] ?? {};
  const strategies: MigrationStrategies = {};
  for (let version = 1; version <= entity.rxVersion; version++) {
    const step = own[version];
    strategies[version] = (doc: Doc) => (step ? step(doc) : doc);
  }
  return strategies;
}
