// The data layer (docs/offline-contract.md, ADR-0049): screens call only this, online and offline.
// It may import src/lib/store, never src/lib/sync. The screens reach the device's store only
// through here: the store's provider and hooks, and the few names of the store they need
// (its type and collections, for the offline screens' counts and settling).
export { createDataLayer } from './datalayer';
export { refreshLists, getCachedLists, saveLists, organisationAbbr, newRegistrationNumber, LISTS_KEY, LISTS_CHANGED_EVENT } from './lists';
export { ConflictError } from '../http';
export {
  compareAndSet,
  heldIsSameOrNewer,
  isPending,
  keyOf,
  storedDoc,
  syncedDoc,
  writeSynced,
  type DocData,
  type StoredDoc,
  type WriteDecision,
  type WriteSyncedOptions,
} from './docs';
export type * from './types';
export { isRemovalPending, duplicateMatch, foldName, PROFILE_FILE_KINDS, type DuplicateQuery } from './clients';
export { mangoOf, pageOf, selectorOf } from './query';
export { userNames } from './userNames';
export { reportSaveFailure } from './saveFailure';

// The store as React sees it.
export {
  DbProvider,
  formerMirrorHeld,
  openIcrsDbOnce,
  openingFailure,
  openStore,
  STORE_OPEN_MAX_WAIT_MS,
  type DbProviderProps,
} from './DbProvider';
export { DbContext, DbOpeningContext, LOADING, useDb, useDbState, type DbState } from './dbContext';
export { useDataLayer, useLiveCount, useLiveQuery, useOpeningDataLayer, type LiveQuery } from './hooks';
export { useLocalDataLayer, useStoreSave, type SaveLayers } from './useLocalDataLayer';
export { useRecord, type RecordState } from './useRecord';

// The store's names the screens need, passed on (a screen imports no src/lib/store).
export { adoptLegacyStore, collectionOf, OFFLINE_ENTITIES, storeSupported, type IcrsDatabase } from '../store';
