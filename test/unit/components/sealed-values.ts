// The vault as a sign-in leaves it, for the component tests of forms: drafts are the signed-in
// user's sealed values (ADR-0020), so a draft is written only with the vault open.
import { afterEach, beforeEach } from 'vitest';
import { closeSealedValues, openSealedValues } from '../../../src/lib/vault/sealedKv';
import { lockVault, openWithKey } from '../../../src/lib/vault/vault';

/** Opens the vault with a fresh key and the sealed values of `userId`, as after a sign-in. */
export async function openVaultAs(userId: string): Promise<void> {
  openWithKey(userId, await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']));
  await openSealedValues(userId);
}

/** Locks the vault and closes the sealed values, as a sign-out does. */
export function closeVault(): void {
  lockVault();
  closeSealedValues();
}

/** Registers the vault opened for `userId` before each test and closed after it. */
export function vaultOpenAs(userId: string): void {
  beforeEach(() => openVaultAs(userId));
  afterEach(closeVault);
}
