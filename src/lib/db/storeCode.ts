// RxDB's code (database.ts), loaded on demand: a list draws its first rows from the server
// without waiting for it, and the store opens once the first screen is drawn (ADR-0035).
// Its own module, so that the app's start can ask for it without importing the store's provider.
import { openVaultUser, VaultLockedError } from '../vault/vault';
import { storeNameFor, type IcrsDatabase } from './collections';

export function loadStoreCode(): Promise<typeof import('./database')> {
  return import('./database');
}

/** Opens the store of the user whose vault is open (each user has their own, ADR-0020), through
 * RxDB's code, loaded first if it is not yet. */
export function openStore(): Promise<IcrsDatabase> {
  const userId = openVaultUser();
  if (!userId) return Promise.reject(new VaultLockedError());
  return loadStoreCode().then(({ createIcrsDb }) => createIcrsDb({ name: storeNameFor(userId) }));
}
