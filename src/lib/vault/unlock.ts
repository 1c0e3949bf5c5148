// When and how the signed-in user's vault opens (ADR-0020, docs/security.md "Shared and lost
// devices"):
// - at a sign-in, with the password the server just accepted (openAtSignIn);
// - at a page load in a tab that had it open (a reload, the language switch, an update): from
//   another open tab of the user (which gives its session token too), or, with the network,
//   from the server's device secret, asked with the tab's session token. A tab marks itself in
//   sessionStorage when its vault opens (`icrs.unlocked`), beside its token (src/lib/session/session.ts);
//   a browser restart, an idle lock, the lock button or a sign-out leaves neither, and a lock
//   ends the session on the server, so the password is asked then, with or without network;
// - otherwise with the password: online, a sign-in (a fresh token); offline, the keyring's
//   password wrap (unlockWithPassword), and an online call then asks for a sign-in.
// The server also says whether the account still may: deactivated, the device drops the user's
// mirror and drafts and keeps the pending records sealed.
import { removeMirror, removeStore } from '../store';
import { adoptLegacyToken, endServerSession, getToken, getUser, saveSession, setToken } from '../session';
import { idleTooLong } from './activity';
import { fromBase64Url } from './crypto';
import { keepExportKey } from './exportSeal';
import { removeKeyring } from './keyring';
import { closeSealedValues, openSealedValues, removeSealedValues } from './sealedKv';
import { joinTabs, keyFromOtherTab, lockOtherTabs, shareWithOtherTabs, unlockedTabLately } from './tabs';
import { isVaultOpen, lockVault, openAtSignIn, rewrapPassword, unlockWithSecret, type SignInOutcome } from './vault';

/** The secrets of a device answer, as bytes: the current one first, then the ones before. */
function secretsOf(device: DeviceAnswer): {
  secret: Uint8Array<ArrayBuffer>;
  previous: Uint8Array<ArrayBuffer>[];
  exportSecret: Uint8Array<ArrayBuffer>;
} {
  return {
    secret: fromBase64Url(device.deviceSecret),
    previous: (device.previousSecrets ?? []).map(fromBase64Url),
    exportSecret: fromBase64Url(device.exportSecret ?? device.deviceSecret),
  };
}

/** The user's draft files removed; their module (and Dexie with it) loaded only then, not with
 * the first screen (ADR-0035). */
const removeDraftFiles = (userId: string): Promise<void> => import('./draftFiles').then((drafts) => drafts.removeDraftFiles(userId));

const MARK = 'icrs.unlocked';
/** How long a page load waits for another tab's key before asking for the password. */
const TAB_WAIT_MS = 300;
/** The same, when an unlocked tab said it was open lately (tabs.ts unlockedTabLately): a busy
 * machine or a background tab may take seconds to answer. */
const TAB_WAIT_LONG_MS = 4000;

/** What the server says of the signed-in account (GET /api/session/device). */
export interface DeviceAnswer {
  userId: string;
  role: number;
  location: number;
  active: boolean;
  deviceSecret: string;
  /** Secrets before the last rotations, newest first. */
  previousSecrets?: string[];
  /** The export files' key material, never rotated. */
  exportSecret?: string;
}

export type DeviceCheck =
  | { status: 'ok'; device: DeviceAnswer }
  | { status: 'inactive' }
  | { status: 'ended' }
  | { status: 'mustChangePassword' }
  | { status: 'unreachable' };

/** Asks the server about the account, outside the app's HTTP client: a refused session here
 * must not sign the user out (the vault may still open offline with the password). */
export async function checkDevice(token: string): Promise<DeviceCheck> {
  let response: Response;
  try {
    response = await fetch('/api/session/device', { headers: { Authorization: `Bearer ${token}` }, cache: 'no-store' });
  } catch {
    return { status: 'unreachable' };
  }
  if (response.status === 401) {
    const body = (await response.json().catch(() => ({}))) as { code?: unknown };
    return body.code === 'auth.inactive' ? { status: 'inactive' } : { status: 'ended' };
  }
  if (response.status === 403) {
    // A temporary password: the server keeps the secret back until it is changed (ADR-0003).
    const body = (await response.json().catch(() => ({}))) as { code?: unknown };
    if (body.code === 'auth.mustChangePassword') return { status: 'mustChangePassword' };
  }
  if (!response.ok) return { status: 'unreachable' };
  const device = (await response.json().catch(() => null)) as DeviceAnswer | null;
  return device && typeof device.deviceSecret === 'string' ? { status: 'ok', device } : { status: 'unreachable' };
}

/** The account's organisation as the server says now (an administrator may have moved it). */
function noteOrganisation(location: number): void {
  const user = getUser();
  const token = getToken();
  if (user && token && user.location !== location) saveSession({ ...user, location }, token);
}

function readMark(): string | null {
  try {
    return sessionStorage.getItem(MARK);
  } catch {
    return null;
  }
}

function writeMark(userId: string | null): void {
  try {
    if (userId) sessionStorage.setItem(MARK, userId);
    else sessionStorage.removeItem(MARK);
  } catch {
    // No sessionStorage: every load asks for the password.
  }
}

/** Once the vault is open: the user's drafts opened, this tab marked, the user's other tabs told. */
async function opened(userId: string): Promise<void> {
  await openSealedValues(userId);
  writeMark(userId);
  shareWithOtherTabs(userId);
}

export type Resumed = 'open' | 'locked' | 'inactive' | 'mustChangePassword';

let resuming: { userId: string; done: Promise<Resumed> } | null = null;

/**
 * At a signed-in page load: opens the vault without the password when this tab had it open (a
 * reload), from another tab or the server; `locked` when the password must be typed; `inactive`
 * when the server says the account is deactivated (its mirror and drafts are removed then).
 * `onLockedElsewhere` runs when another tab locks.
 */
export function resumeVault(userId: string, token: string | null, onLockedElsewhere: () => void): Promise<Resumed> {
  // Asked at the start (App.tsx) and by the gate: one resume per page load.
  if (resuming?.userId !== userId) resuming = { userId, done: resume(userId, token, onLockedElsewhere) };
  return resuming.done;
}

async function resume(userId: string, token: string | null, onLockedElsewhere: () => void): Promise<Resumed> {
  // Another tab locked: this one keeps neither its mark nor its token (ended there already).
  joinTabs(userId, () => {
    forgetTabSession();
    onLockedElsewhere();
  });
  if (isVaultOpen(userId)) return 'open';
  const fromTab = keyFromOtherTab(userId, unlockedTabLately() ? TAB_WAIT_LONG_MS : TAB_WAIT_MS);
  const mayAskServer = readMark() === userId && token !== null;
  const check = mayAskServer ? checkDevice(token) : Promise.resolve<DeviceCheck>({ status: 'unreachable' });
  const fromServer = check.then(async (answer) => {
    if (answer.status !== 'ok') return false;
    noteOrganisation(answer.device.location);
    const { secret, previous, exportSecret } = secretsOf(answer.device);
    const opened = await unlockWithSecret(userId, secret, previous);
    if (opened) await keepExportKey(userId, exportSecret);
    return opened;
  });
  const [tab, server, answer] = await Promise.all([fromTab, fromServer.catch(() => false), check]);
  // A token the server refuses (expired, ended) is of no use to keep.
  if (answer.status === 'ended' && getToken() === token) setToken(null);
  if (answer.status === 'inactive') {
    lockVault();
    await forgetMirror(userId);
    return 'inactive';
  }
  // The tab's mark stays when nothing opened the vault (no network now, or a page going away
  // whose request was cut): it only lets a later load of this tab ask the server again, which
  // still needs a live session. Locks and sign-outs remove it (lockEverywhere).
  if (!tab && !server) return answer.status === 'mustChangePassword' ? 'mustChangePassword' : 'locked';
  await opened(userId);
  return 'open';
}

/** After an unlock with the password on the lock screen. */
export function unlockedWithPassword(userId: string): Promise<void> {
  return opened(userId);
}

/**
 * At a sign-in the server accepted (the token is stored): opens the user's vault with the
 * password and the server's device secret. A keyring neither can open (it cannot happen unless
 * the device's storage was damaged) leaves data nobody can read: that store is removed.
 */
export async function openVaultAtSignIn(
  user: { userId: string; location: number },
  password: string,
  token: string,
): Promise<SignInOutcome> {
  const answer = await checkDevice(token);
  const secrets = answer.status === 'ok' ? secretsOf(answer.device) : null;
  const outcome = await openAtSignIn({
    userId: user.userId,
    password,
    secret: secrets?.secret ?? null,
    previous: secrets?.previous ?? [],
    location: user.location,
  });
  if (outcome === 'deferred') return outcome;
  if (secrets) await keepExportKey(user.userId, secrets.exportSecret);
  if (outcome === 'replaced') {
    console.error('This device held data of this user sealed under a key that can no longer be opened; it is removed.');
    await Promise.all([removeStore(user.userId), removeDraftFiles(user.userId)]);
    removeSealedValues(user.userId);
  }
  await opened(user.userId);
  return outcome;
}

/** After the user changed their password here: the data key sealed under the new one; or, when
 * the vault could not open before (a temporary password, for which the server keeps the device
 * secret back), opened now with the new password and the secret. */
export async function afterPasswordChange(
  user: { userId: string; location: number },
  oldPassword: string,
  newPassword: string,
  token: string,
): Promise<void> {
  if (isVaultOpen(user.userId)) await rewrapPassword(user.userId, oldPassword, newPassword);
  else await openVaultAtSignIn(user, newPassword, token);
}

/** This tab forgets its session: its unlocked mark and its token (memory and sessionStorage). */
function forgetTabSession(): void {
  writeMark(null);
  setToken(null);
}

/**
 * The key leaves memory here and in the user's other tabs (sign-out, the lock button, the idle
 * lock), and so does the session token: removed from this tab's storage and, for a lock, ended
 * on the server (`endSession`; a sign-out ends it itself, with POST /api/logout). The password
 * is then the only way back in (docs/security.md "Shared and lost devices").
 */
export function lockEverywhere(userId: string | null, { endSession = true }: { endSession?: boolean } = {}): void {
  const token = getToken();
  lockVault();
  closeSealedValues();
  forgetTabSession();
  if (userId) lockOtherTabs(userId);
  if (endSession) endServerSession('/api/session/lock', token);
}

/** At start: a tab left idle longer than the lock's delay (a browser that restored it after a
 * restart, a laptop woken hours later) keeps neither its mark nor its token, and its session is
 * ended on the server, as the idle lock would have done had the page been running. */
export function settleIdleSession(lockAfterMinutes: number): void {
  if (!idleTooLong(lockAfterMinutes)) return;
  const token = getToken();
  forgetTabSession();
  endServerSession('/api/session/lock', token);
}

/** At start: a session token the release before left in localStorage goes. A tab that was
 * unlocked (its mark) keeps it in its own storage; any other is ended on the server. */
export function settleLegacyToken(userId: string | null): void {
  const dropped = adoptLegacyToken(userId !== null && readMark() === userId);
  if (dropped) endServerSession('/api/session/lock', dropped);
}

const FORGET = 'icrs.forget';

/** The server said the account is deactivated while the store was open: its mirror is removed at
 * the next start, before any store opens (removing it under an open store would race the pull). */
export function forgetAtNextStart(userId: string): void {
  try {
    const users = new Set(JSON.parse(localStorage.getItem(FORGET) ?? '[]') as string[]);
    users.add(userId);
    localStorage.setItem(FORGET, JSON.stringify([...users]));
  } catch {
    // Storage refused: the next resume asks the server again.
  }
}

/** At start, before anything opens a store: the removals asked by forgetAtNextStart. */
export async function forgetAsked(): Promise<void> {
  let users: string[];
  try {
    users = JSON.parse(localStorage.getItem(FORGET) ?? '[]') as string[];
  } catch {
    return;
  }
  if (!Array.isArray(users) || users.length === 0) return;
  await Promise.all(users.map((userId) => forgetMirror(String(userId))));
  localStorage.removeItem(FORGET);
}

/** A deactivated account: its mirror and drafts leave the device; pending records stay sealed. */
export async function forgetMirror(userId: string): Promise<void> {
  removeSealedValues(userId);
  await Promise.all([
    removeMirror(userId).catch((error: unknown) => console.warn('The mirror could not be removed:', error)),
    removeDraftFiles(userId),
  ]);
}

/** "Remove my data from this device": the user's store, drafts and keyring; the caller signs out. */
export async function removeMyData(userId: string): Promise<void> {
  // The key leaves memory here; the token stays for the sign-out that follows (src/lib/vault/auth.ts
  // logout), which ends the session, rotates the device secret and locks the other tabs.
  lockVault();
  closeSealedValues();
  removeSealedValues(userId);
  await Promise.all([removeStore(userId), removeDraftFiles(userId)]);
  removeKeyring(userId);
}
