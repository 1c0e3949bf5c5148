// The browser store `icrs_db` (product.md §3): RxDB on Dexie (IndexedDB) with exactly the 13
// collections of the spec, each schema derived from its declaration in schemas/. Loaded only to
// open the store (DbProvider); everything else names collections through collections.ts.
import { addRxPlugin, createRxDatabase, type RxStorage } from 'rxdb';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { RxDBLocalDocumentsPlugin } from 'rxdb/plugins/local-documents';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import type { EntityShape } from '../../../schemas/define';
import { rxSchema } from '../../../schemas/derive/rxdb';
import { collectionName, DB_NAME, OFFLINE_ENTITIES, type IcrsDatabase } from './collections';
import { withLightDeletes } from './lightDeletes';
import { withSealedClients, type Sealer } from './sealedStorage';
import { DEFAULT_BOUNDS, withBounds, type StoreBounds } from './boundedStorage';
import { MIGRATION_STEPS, migrationStrategiesFor, type MigrationSteps } from './migrations';
import { inPieces, whenIdle, yieldToBrowser } from '../util';

/** Collections set up in one step when the store opens. */
const COLLECTIONS_PER_STEP = 3;
/** After the first screen's collections, the longest the others wait for an idle page. */
const REST_MAX_WAIT_MS = 1_500;

export { collectionName, collectionOf, DB_NAME, OFFLINE_ENTITIES, type IcrsCollection, type IcrsDatabase } from './collections';

export interface IcrsDbOptions {
  /** How client documents are sealed: the vault's key (`vaultSealer`, src/lib/vault). */
  sealer: Sealer;
  /** Another storage (tests: Dexie over fake-indexeddb, or memory). Default: Dexie on IndexedDB. */
  storage?: RxStorage<unknown, unknown>;
  /** Another database name (tests open several). */
  name?: string;
  /** Another declaration of an entity and other migration steps: for the migration test. */
  schemaOverride?: (entity: EntityShape) => EntityShape;
  migrationSteps?: MigrationSteps;
  /** Other bounds for the store's steps (tests: short ones). */
  bounds?: Partial<StoreBounds>;
  /** The entities the first screen reads: their collections are set up first, in a step of
   * their own, so that the screen reads them while the others are set up (ADR-0035). */
  first?: readonly EntityShape[];
  /** Told after each step of the set-up, with the store and the collections it has so far. */
  onCollections?: (db: IcrsDatabase) => void;
}

addRxPlugin(RxDBMigrationSchemaPlugin);
addRxPlugin(RxDBLeaderElectionPlugin); // one tab pulls for all (replication.ts)
addRxPlugin(RxDBLocalDocumentsPlugin); // the pull checkpoints (replication.ts)

/**
 * Opens (or creates) the store. In development the storage is wrapped with the schema validator
 * and the dev-mode checks are on; production builds leave both out (they are large and slow).
 */
export async function createIcrsDb(options: IcrsDbOptions): Promise<IcrsDatabase> {
  performance.mark('icrs-db:open');
  // Client data is sealed under the vault's key before it reaches IndexedDB (sealedStorage.ts);
  // removed images leave no bytes behind in IndexedDB or on the way to other tabs (lightDeletes.ts).
  // Every step below has a bound (boundedStorage.ts, docs/adr/0046-store-never-waits-forever.md "The device's store never
  // waits forever").
  const bounds = { ...DEFAULT_BOUNDS, ...options.bounds };
  const base = options.storage ?? (getRxStorageDexie() as RxStorage<unknown, unknown>);
  let storage = withBounds(withLightDeletes(withSealedClients(base, options.sealer, bounds.eventOpenMs)), bounds);
  if (import.meta.env?.DEV) storage = await devModeStorage(storage);
  const db = (await createRxDatabase({
    name: options.name ?? DB_NAME,
    storage,
    multiInstance: true, // several tabs share one store and see each other's writes
    eventReduce: true,
    closeDuplicates: true,
    localDocuments: true,
  })) as IcrsDatabase;
  performance.mark('icrs-db:database');
  const spec = (declared: EntityShape) => {
    const entity = options.schemaOverride?.(declared) ?? declared;
    return [
      collectionName(entity),
      { schema: rxSchema(entity), migrationStrategies: migrationStrategiesFor(entity, options.migrationSteps ?? MIGRATION_STEPS) },
    ] as const;
  };
  const first = OFFLINE_ENTITIES.filter((entity) => options.first?.includes(entity));
  const rest = OFFLINE_ENTITIES.filter((entity) => !first.includes(entity));
  // A few collections at a time, with the browser's turn between: setting up a collection is
  // tens of milliseconds of the main thread on a phone, and all 13 at once were one long task
  // of the first screen (ADR-0035). The first screen's own come first, alone; the others once
  // the page is idle, so that the screen draws its rows before they take the main thread.
  const steps = [...(first.length ? [first] : []), ...inPieces(rest, COLLECTIONS_PER_STEP)];
  for (const [index, step] of steps.entries()) {
    await (index === 1 && first.length ? idle(REST_MAX_WAIT_MS) : yieldToBrowser());
    await db.addCollections(Object.fromEntries(step.map(spec)));
    if (step === first) performance.mark('icrs-db:first-collections');
    options.onCollections?.(db);
  }
  performance.mark('icrs-db:collections');
  return db;
}

/** Resolves when the page is first idle, at the latest after `maxWaitMs`. */
const idle = (maxWaitMs: number) => new Promise<void>((resolve) => whenIdle(resolve, maxWaitMs));

async function devModeStorage(storage: RxStorage<unknown, unknown>): Promise<RxStorage<unknown, unknown>> {
  const [{ RxDBDevModePlugin, disableWarnings }, { wrappedValidateAjvStorage }] = await Promise.all([
    import('rxdb/plugins/dev-mode'),
    import('rxdb/plugins/validate-ajv'),
  ]);
  disableWarnings();
  addRxPlugin(RxDBDevModePlugin);
  return wrappedValidateAjvStorage({ storage }) as RxStorage<unknown, unknown>;
}
