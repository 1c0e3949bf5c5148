// Opens icrs_db once per page, when the app first mounts this provider (not at import, so a
// page that never needs it, and the tests, pay nothing), and hands it to the screens.
import { startTransition, useEffect, useState, type ReactNode } from 'react';
import type { EntityShape } from '../../../schemas/define';
import { DbContext, DbOpeningContext, LOADING, type DbState, type StoreOpening } from './dbContext';
import {
  collectionName,
  collectionOf,
  loadStoreCode,
  STORE_OPEN_BOUND_MS,
  storeNameFor,
  withinBound,
  type IcrsCollection,
  type IcrsDatabase,
} from '../store';
import { appIsOnline, getUser } from '../session';
import { whenIdle } from '../util';
import { mirrorIsOtherThan, openVaultUser, vaultSealer, VaultLockedError } from '../vault';

/** Opens the store of the user whose vault is open (each user has their own, ADR-0020), sealed
 * under the vault's key, through RxDB's code, loaded first if it is not yet. `first`: the
 * entities whose collections are set up first; `onCollections` hears each step of the set-up. */
export function openStore(first: readonly EntityShape[] = [], onCollections?: (db: IcrsDatabase) => void): Promise<IcrsDatabase> {
  const userId = openVaultUser();
  if (!userId) return Promise.reject(new VaultLockedError());
  return loadStoreCode().then(({ createIcrsDb }) =>
    createIcrsDb({ name: storeNameFor(userId), sealer: vaultSealer, first, onCollections }),
  );
}

let opening: Promise<IcrsDatabase> | null = null;
/** The page's store as far as its opening has set it up, and who waits for one of its collections. */
let settingUp: IcrsDatabase | null = null;
const waitingForCollection = new Set<() => void>();

function collectionsSetUp(db: IcrsDatabase): void {
  settingUp = db;
  for (const heard of [...waitingForCollection]) heard();
}

/** True when the store holds the mirror of an organisation the signed-in account has left
 * (ADR-0020): that mirror goes before any screen reads the store (DbProvider `beforeReads`). */
export function formerMirrorHeld(): boolean {
  const user = getUser();
  return user !== null && mirrorIsOtherThan(user.userId, user.location);
}

/** The page's one store. RxDB refuses a second instance of a name in one page, and React may
 * mount the provider twice (StrictMode), so every caller shares one promise. A failed open
 * is forgotten, so a later mount can try again. The first caller's `first` entities have their
 * collections set up before the others, and read at once (the first screen's, ADR-0035);
 * never while the store holds a former organisation's mirror, which must go first. */
export function openIcrsDbOnce(first: readonly EntityShape[] = []): Promise<IcrsDatabase> {
  if (typeof indexedDB === 'undefined')
    return Promise.reject(new Error('This browser offers no IndexedDB: offline storage is unavailable'));
  // Bounded (bounds.ts): an IndexedDB that never answers the opening leaves the screens a
  // message and a way to try again, not "Loading…" for good.
  opening ??= withinBound(formerMirrorHeld() ? openStore() : openStore(first, collectionsSetUp), STORE_OPEN_BOUND_MS, 'open').catch(
    (error: unknown) => {
      opening = null;
      settingUp = null;
      throw openingFailure(error);
    },
  );
  return opening;
}

/** The collection of `entity` in the page's store (openIcrsDbOnce) as soon as its opening has
 * set it up, before the store's other collections are. Never rejects: a failed opening is told
 * by the opening's own promise, which callers race this with (DbProvider). */
function collectionSetUp(entity: EntityShape): Promise<IcrsCollection> {
  const name = collectionName(entity);
  return new Promise((resolve) => {
    const heard = () => {
      const collection = settingUp?.collections[name];
      if (!collection) return;
      waitingForCollection.delete(heard);
      resolve(collection);
    };
    waitingForCollection.add(heard);
    heard();
  });
}

/** The failure of an opening as an Error that says what happened. IndexedDB and RxDB may reject
 * with no reason at all (a request's `error` is null once its transaction aborted, as when the
 * user moves to another screen or page while the store opens; Firefox logged "undefined"). */
export function openingFailure(error: unknown): Error {
  if (error instanceof Error) return error;
  if (error === undefined || error === null)
    return new Error('The opening was interrupted without a reason (a transaction aborted: the page was left or closed meanwhile)');
  if (typeof Event !== 'undefined' && error instanceof Event) {
    const target = error.target as { error?: unknown } | null;
    return new Error(`IndexedDB refused the opening (${error.type} event): ${String(target?.error ?? 'no reason given')}`, {
      cause: error,
    });
  }
  return new Error(String(error), { cause: error });
}

export interface DbProviderProps {
  children: ReactNode;
  /** What is done to the open store before any screen reads it (a former organisation's mirror
   * removed, ADR-0020). Its failure is the opening's: the screens read nothing. */
  beforeReads?: (db: IcrsDatabase) => Promise<void>;
  /** Another way to open the store (tests). */
  open?: () => Promise<IcrsDatabase>;
}

/** The longest the store waits for the first screen before it opens anyway. */
export const STORE_OPEN_MAX_WAIT_MS = 500;

/** `entity`'s collection once the store `db` will be is open. */
const collectionOnceOpen =
  (db: Promise<IcrsDatabase>) =>
  (entity: EntityShape): Promise<IcrsCollection> =>
    db.then((opened) => collectionOf(opened, entity));

/** `entity`'s collection of the store `db` will be: as soon as the page's opening has set it up
 * (before the others), else once `db` is open; `db`'s failure otherwise. */
export function collectionWhenSetUp(db: Promise<IcrsDatabase>): (entity: EntityShape) => Promise<IcrsCollection> {
  const whole = collectionOnceOpen(db);
  return (entity) => Promise.race([collectionSetUp(entity), whole(entity)]);
}

/** The provider's opening: the store's promise, and a collection's as soon as it is set up
 * (the page's own opening tells that; another `open`, only once the whole store is open). */
function storeOpening(db: Promise<IcrsDatabase>, open: () => Promise<IcrsDatabase>): StoreOpening {
  return { db, collection: open === openIcrsDbOnce ? collectionWhenSetUp(db) : collectionOnceOpen(db) };
}

/** A promise settled from outside: the store's, made at the first render, opened in the effect. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined); // the failure is the state's `error`; waiting on it is optional
  return { promise, resolve, reject };
}

export function DbProvider({ children, open = openIcrsDbOnce, beforeReads }: DbProviderProps) {
  const [state, setState] = useState<DbState>(LOADING);
  const [opening] = useState(() => deferred<IcrsDatabase>());
  const [shared] = useState(() => storeOpening(opening.promise, open));
  useEffect(() => {
    let mounted = true;
    // Opened when the page is first idle, not beside the first screen's rendering: RxDB's 13
    // collections cost ~0.2-0.3 s of the main thread, and a screen that waits for the store
    // leaves the page idle, so it opens at once there (docs/performance.md "Start-up"). A list
    // asks the server meanwhile and merges this device's records once the store is open.
    const start = () => {
      open()
        .then((db) => (beforeReads ? beforeReads(db).then(() => db) : db))
        .then(
          (db) => {
            opening.resolve(db);
            // Every screen under the store draws again: in slices, not in one long task.
            if (mounted) startTransition(() => setState({ status: 'ready', db, error: null }));
          },
          (error: unknown) => {
            const failure = openingFailure(error);
            console.error(`icrs_db could not be opened: ${failure.name}: ${failure.message}`, failure);
            opening.reject(failure);
            if (mounted) setState({ status: 'error', db: null, error: failure });
          },
        );
    };
    // Offline, every screen reads the store and nothing else: waiting for an idle page only
    // delays the first screen's rows (docs/performance.md "The offline client list").
    const cancel = !appIsOnline() ? (start(), () => undefined) : whenIdle(start, STORE_OPEN_MAX_WAIT_MS);
    // The store stays open for the page's life: closing it here would break the next mount.
    return () => {
      mounted = false;
      cancel();
    };
  }, [open, opening, beforeReads]);
  return (
    <DbOpeningContext.Provider value={shared}>
      <DbContext.Provider value={state}>{children}</DbContext.Provider>
    </DbOpeningContext.Provider>
  );
}
