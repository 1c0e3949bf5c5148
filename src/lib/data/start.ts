// The data layer's start-up surface (ADR-0049 "Two doors for the data layer"): what the app's
// start needs before any screen, without the data layer's own code. The index (index.ts) brings
// the whole layer with it (a bundler places every module an index names in the chunk of its
// first importer), so the first screen's chunk imports this file instead: RxDB's code to load
// ahead (loadStoreCode, ADR-0035) and a list's first page asked before its screen is drawn.
export { loadStoreCode, type IcrsCollection, type IcrsDatabase } from '../store';
export { prefetchPage } from './prefetch';
export { collectionWhenSetUp, formerMirrorHeld, openIcrsDbOnce } from './DbProvider';

/** An offline list's first page read from the store ahead of its screen (localList.ts); its
 * module loads with the data layer's, not with the entry. */
export function readFirstPageAhead(...args: Parameters<typeof import('./localList').readFirstPageAhead>): Promise<void> {
  return import('./localList').then((module) => module.readFirstPageAhead(...args));
}
