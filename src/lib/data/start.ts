// The data layer's start-up surface (ADR-0049 "Two doors for the data layer"): what the app's
// start needs before any screen, without the data layer's own code. The index (index.ts) brings
// the whole layer with it (a bundler places every module an index names in the chunk of its
// first importer), so the first screen's chunk imports this file instead: RxDB's code to load
// ahead (loadStoreCode, ADR-0035) and a list's first page asked before its screen is drawn.
export { loadStoreCode } from '../store';
export { prefetchPage } from './prefetch';
