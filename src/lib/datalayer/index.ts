// The data layer (docs/offline-contract.md): screens call only this, online and offline.
export { createDataLayer } from './datalayer';
export { refreshLists, getCachedLists, saveLists, organisationAbbr, newRegistrationNumber, LISTS_KEY, LISTS_CHANGED_EVENT } from './lists';
export { ConflictError } from '../http';
export { syncedDoc, keyOf, writeSynced, type WriteSyncedOptions } from './docs';
export type * from './types';
export { isRemovalPending, duplicateMatch, foldName, PROFILE_FILE_KINDS, type DuplicateQuery } from './clients';
