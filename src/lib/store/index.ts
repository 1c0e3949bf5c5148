// The device's store (ADR-0019, ADR-0049): RxDB, its sealed and bounded storage, the collections,
// light deletes, the store's migrations, and the user's store handled below RxDB. No React, and
// nothing from src/lib/data or src/lib/sync. RxDB's own code (database.ts) is not exported here:
// it loads on demand through `loadStoreCode` (ADR-0035), so that importing this index never
// brings RxDB into the first screen's chunk.
export {
  EVENT_OPEN_BOUND_MS,
  isStoreTimeout,
  SAVE_BOUND_MS,
  STORE_OPEN_BOUND_MS,
  STORE_READ_BOUND_MS,
  STORE_TIMEOUT_CODE,
  STORE_WRITE_BOUND_MS,
  StoreTimeoutError,
  withinBound,
  type StoreStep,
} from './bounds';
export {
  collectionName,
  collectionOf,
  DB_NAME,
  OFFLINE_ENTITIES,
  storeNameFor,
  type IcrsCollection,
  type IcrsDatabase,
} from './collections';
export { deleteDatabase, removeMirror, removeStore } from './deviceData';
export { leaveNoTransaction } from './leaveNoTransaction';
export { adoptLegacyStore } from './legacyStore';
export { owedChanges$, owedKeys, oweServerCopy, settleOwed } from './owed';
export type { Sealer } from './sealedStorage';
export { loadStoreCode } from './storeCode';
export { storeSupported } from './storeSupport';
export { warmOpened } from './warmCache';
