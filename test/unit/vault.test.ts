// The device vault (src/lib/vault, ADR-0020): a data key per user and device, opened by the
// password offline or by the server's device secret, held in memory only; wrong passwords
// refused and slowed down (the count kept in IndexedDB); drafts sealed at rest; the iteration
// floor; the device secret's rotations. WebCrypto of Node, localStorage and IndexedDB stood in.
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromBase64, randomBytes } from '../../src/lib/vault/crypto';
import { readKeyring, unlockWaitMs } from '../../src/lib/vault/keyring';
import { closeSealedValues, openSealedValues, readSealedValue, writeSealedValue } from '../../src/lib/vault/sealedKv';
import {
  isVaultOpen,
  knowOpenings,
  lockVault,
  openAtSignIn,
  openJson,
  rewrapPassword,
  sealJson,
  unlockWithPassword,
  unlockWithSecret,
  VaultLockedError,
  vaultSealer,
} from '../../src/lib/vault/vault';

class MemoryStorage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.items.set(k, String(v));
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
  clear() {
    this.items.clear();
  }
  dump() {
    return [...this.items.values()].join('\n');
  }
}

let storage: MemoryStorage;
const USER = 'u-0001';
const secret = randomBytes(32);

beforeEach(() => {
  storage = new MemoryStorage();
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('indexedDB', new IDBFactory());
});
afterEach(() => {
  lockVault();
  closeSealedValues();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const signIn = (password: string, withSecret: Uint8Array<ArrayBuffer> | null = secret) =>
  openAtSignIn({ userId: USER, password, secret: withSecret, location: 3 });

describe('the device vault', () => {
  it('makes a data key at the first sign-in, keeps only sealed copies of it, and locks', async () => {
    expect(await signIn('first pass 1')).toBe('created');
    const keyring = readKeyring(USER)!;
    expect(keyring.iterations).toBeGreaterThanOrEqual(600_000);
    expect(fromBase64(keyring.byPassword!).length).toBe(12 + 32 + 16); // IV, sealed key, tag
    expect(keyring.bySecret).toBeDefined();
    const sealed = await sealJson({ name: 'Aminatou Zawadi' });
    expect(sealed).not.toContain('Aminatou');
    expect(await openJson(sealed)).toEqual({ name: 'Aminatou Zawadi' });
    lockVault();
    expect(isVaultOpen()).toBe(false);
    await expect(sealJson({})).rejects.toBeInstanceOf(VaultLockedError);
    await expect(openJson(sealed)).rejects.toBeInstanceOf(VaultLockedError);
  });

  it('opens offline with the right password only, and the same key reads what was sealed', async () => {
    await signIn('first pass 1');
    const sealed = await sealJson({ phone: '+243811223344' });
    lockVault();
    expect(await unlockWithPassword(USER, 'wrong one')).toEqual({ ok: false, reason: 'wrong' });
    expect(isVaultOpen()).toBe(false);
    expect(await unlockWithPassword(USER, 'first pass 1')).toEqual({ ok: true });
    expect(await openJson(sealed)).toEqual({ phone: '+243811223344' });
  });

  it('slows down repeated failures, even for the right password, until the pause is over', async () => {
    await signIn('first pass 1');
    lockVault();
    for (let i = 0; i < 3; i++) expect((await unlockWithPassword(USER, `guess ${i}`)).ok).toBe(false);
    const refused = await unlockWithPassword(USER, 'first pass 1');
    expect(refused).toMatchObject({ ok: false, reason: 'wait' });
    expect(await unlockWaitMs(USER)).toBeGreaterThan(0);
    // Each further failure doubles the pause.
    const first = await unlockWaitMs(USER);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10 * 60_000);
    expect(await unlockWaitMs(USER)).toBe(0);
    expect(await unlockWithPassword(USER, 'guess 4')).toMatchObject({ ok: false, reason: 'wrong' });
    expect(await unlockWaitMs(USER)).toBeGreaterThan(first);
    vi.setSystemTime(Date.now() + 10 * 60_000);
    expect(await unlockWithPassword(USER, 'first pass 1')).toEqual({ ok: true });
    expect(await unlockWaitMs(USER)).toBe(0); // a success forgets the failures
  });

  it('keeps the failure count in IndexedDB: clearing localStorage does not reset it', async () => {
    await signIn('first pass 1');
    const keyring = storage.getItem(`icrs.keyring.${USER}`)!;
    lockVault();
    for (let i = 0; i < 4; i++) expect((await unlockWithPassword(USER, `guess ${i}`)).ok).toBe(false);
    const waiting = await unlockWaitMs(USER);
    expect(waiting).toBeGreaterThan(0);
    // Someone clears localStorage, puts the keyring back and reloads the page (the modules load
    // again, so nothing this page held in memory counts): the pause holds.
    storage.clear();
    storage.setItem(`icrs.keyring.${USER}`, keyring);
    vi.resetModules();
    const reloaded = {
      keyring: await import('../../src/lib/vault/keyring'),
      vault: await import('../../src/lib/vault/vault'),
    };
    expect(await reloaded.keyring.unlockWaitMs(USER)).toBeGreaterThan(0);
    expect(await reloaded.vault.unlockWithPassword(USER, 'first pass 1')).toMatchObject({ ok: false, reason: 'wait' });
    expect(storage.dump()).not.toMatch(/count/);
  });

  it('opens with the server device secret (a reload online), never with another', async () => {
    await signIn('first pass 1');
    const sealed = await sealJson('kept');
    lockVault();
    expect(await unlockWithSecret(USER, randomBytes(32))).toBe(false);
    expect(isVaultOpen()).toBe(false);
    expect(await unlockWithSecret(USER, secret)).toBe(true);
    expect(await openJson(sealed)).toBe('kept');
  });

  it('keeps the data after a password changed elsewhere: the next sign-in opens with the secret and seals under the new password', async () => {
    await signIn('first pass 1');
    const sealed = await sealJson('pending record');
    lockVault();
    expect(await signIn('second pass 2')).toBe('opened');
    expect(await openJson(sealed)).toBe('pending record');
    lockVault();
    expect((await unlockWithPassword(USER, 'first pass 1')).ok).toBe(false);
    expect(await unlockWithPassword(USER, 'second pass 2')).toEqual({ ok: true });
    expect(await openJson(sealed)).toBe('pending record');
  });

  it('never replaces a keyring it could not try with the secret (a password changed elsewhere, the secret kept back): the records it seals wait', async () => {
    await signIn('first pass 1');
    const sealed = await sealJson('pending record');
    const before = JSON.stringify(readKeyring(USER));
    lockVault();
    expect(await signIn('second pass 2', null)).toBe('deferred');
    expect(isVaultOpen()).toBe(false);
    expect(JSON.stringify(readKeyring(USER))).toBe(before);
    expect(await signIn('second pass 2')).toBe('opened'); // the secret given: opened, resealed
    expect(await openJson(sealed)).toBe('pending record');
  });

  it('seals under a password changed here', async () => {
    await signIn('first pass 1');
    expect(await rewrapPassword(USER, 'first pass 1', 'third pass 3')).toBe(true);
    lockVault();
    expect(await unlockWithPassword(USER, 'third pass 3')).toEqual({ ok: true });
  });

  it('opens a keyring sealed under a secret before its rotations, and seals it again under the current one', async () => {
    await signIn('first pass 1');
    const sealed = await sealJson('pending record');
    lockVault();
    const rotated = randomBytes(32);
    const again = randomBytes(32);
    expect(await unlockWithSecret(USER, rotated)).toBe(false);
    expect(await unlockWithSecret(USER, again, [rotated, secret])).toBe(true);
    expect(await openJson(sealed)).toBe('pending record');
    lockVault();
    expect(await unlockWithSecret(USER, secret)).toBe(false); // the old wrap is gone from the device
    expect(await unlockWithSecret(USER, again)).toBe(true);
  });

  it('takes in a password changed elsewhere after the secret rotated (a reset): the secret before opens, both wraps are sealed again', async () => {
    await signIn('first pass 1');
    const sealed = await sealJson('pending record');
    lockVault();
    const rotated = randomBytes(32);
    expect(await openAtSignIn({ userId: USER, password: 'reset pass 9', secret: rotated, previous: [secret], location: 3 })).toBe('opened');
    expect(await openJson(sealed)).toBe('pending record');
    lockVault();
    expect(await unlockWithSecret(USER, secret)).toBe(false);
    expect(await unlockWithSecret(USER, rotated)).toBe(true);
    lockVault();
    expect(await unlockWithPassword(USER, 'reset pass 9')).toEqual({ ok: true });
  });

  it('refuses a keyring below 600,000 iterations: never opened offline nor sealed again under it; a sign-in with the secret replaces it', async () => {
    await signIn('first pass 1');
    lockVault();
    const stored = JSON.parse(storage.getItem(`icrs.keyring.${USER}`)!) as { iterations: number };
    for (const iterations of [1, 599_999, 1e12]) {
      storage.setItem(`icrs.keyring.${USER}`, JSON.stringify({ ...stored, iterations }));
      expect(readKeyring(USER)).toBeNull();
      expect(await unlockWithPassword(USER, 'first pass 1')).toEqual({ ok: false, reason: 'noKeyring' });
      expect(await unlockWithSecret(USER, secret)).toBe(false);
      // Offline (no secret): it stays refused, and is not sealed again under the weak count.
      expect(await signIn('first pass 1', null)).toBe('deferred');
      expect(isVaultOpen()).toBe(false);
      expect(JSON.parse(storage.getItem(`icrs.keyring.${USER}`)!).iterations).toBe(iterations);
    }
    // Online: a new key at the full count; the caller removes the data only the old one opened.
    expect(await signIn('first pass 1')).toBe('replaced');
    expect(readKeyring(USER)?.iterations).toBe(600_000);
  });

  it('starts a new key when neither the password nor the secret opens the keyring (the caller removes the old data)', async () => {
    await signIn('first pass 1');
    lockVault();
    expect(await openAtSignIn({ userId: USER, password: 'other pass', secret: randomBytes(32), location: 3 })).toBe('replaced');
    expect(isVaultOpen(USER)).toBe(true);
  });
});

describe('sealed drafts', () => {
  it('are written at once, unreadable at rest, gone from memory when locked, back after an unlock', async () => {
    await signIn('first pass 1');
    await openSealedValues(USER);
    writeSealedValue('draft:client:new', { values: { firstName: 'Bahati' }, savedAt: 1 });
    expect(readSealedValue('draft:client:new')).toEqual({ values: { firstName: 'Bahati' }, savedAt: 1 });
    expect(storage.dump()).not.toContain('Bahati');
    expect(storage.dump()).not.toContain('draft:client:new');

    lockVault();
    closeSealedValues();
    expect(readSealedValue('draft:client:new')).toBeNull();
    writeSealedValue('draft:client:new', { values: {}, savedAt: 2 }); // locked: nothing written
    expect(await unlockWithPassword(USER, 'first pass 1')).toEqual({ ok: true });
    await openSealedValues(USER);
    expect(readSealedValue('draft:client:new')).toEqual({ values: { firstName: 'Bahati' }, savedAt: 1 });
  });

  it('belong to their user: another user of the device reads none of them', async () => {
    await signIn('first pass 1');
    await openSealedValues(USER);
    writeSealedValue('draft:client:new', { values: { firstName: 'Bahati' }, savedAt: 1 });
    lockVault();
    closeSealedValues();
    await openAtSignIn({ userId: 'u-0002', password: 'b pass 22', secret: randomBytes(32), location: 4 });
    await openSealedValues('u-0002');
    expect(readSealedValue('draft:client:new')).toBeNull();
  });
});

describe("the pull's worker's openings (docs/adr/0051-pull-in-a-worker.md)", () => {
  // The worker tells the page each text it sealed with the JSON it sealed; the store's sealer
  // opens such a text from that JSON, once. A told JSON that differs from the sealed value shows
  // which way a text was opened.
  it('opens a told text from its JSON once, then by decrypting it; forgets them at a lock, and past its bound', async () => {
    await signIn('first pass 1');
    const sealed = await sealJson({ lastName: 'Sealed' });
    knowOpenings([[sealed, JSON.stringify({ lastName: 'Told' })]]);
    expect(await vaultSealer.open(sealed)).toEqual({ lastName: 'Told' });
    expect(await vaultSealer.open(sealed)).toEqual({ lastName: 'Sealed' }); // taken at its opening

    knowOpenings([[sealed, JSON.stringify({ lastName: 'Told' })]]);
    lockVault();
    expect(await unlockWithPassword(USER, 'first pass 1')).toEqual({ ok: true });
    expect(await vaultSealer.open(sealed)).toEqual({ lastName: 'Sealed' });

    const other = await sealJson({ lastName: 'Other' });
    knowOpenings([[sealed, JSON.stringify({ lastName: 'Told' })]]);
    knowOpenings([[other, JSON.stringify({ lastName: 'x'.repeat(4_000_000) })]]); // past the bound: the oldest goes
    expect(await vaultSealer.open(sealed)).toEqual({ lastName: 'Sealed' });

    lockVault();
    knowOpenings([[sealed, JSON.stringify({ lastName: 'Told' })]]); // locked: not kept
    expect(await unlockWithPassword(USER, 'first pass 1')).toEqual({ ok: true });
    expect(await vaultSealer.open(sealed)).toEqual({ lastName: 'Sealed' });
  });
});
