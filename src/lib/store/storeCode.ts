// RxDB's code (database.ts), loaded on demand: a list draws its first rows from the server
// without waiting for it, and the store opens once the first screen is drawn (ADR-0035).
// Its own module, so that the app's start can ask for it without importing the store's provider.
export function loadStoreCode(): Promise<typeof import('./database')> {
  return import('./database');
}
