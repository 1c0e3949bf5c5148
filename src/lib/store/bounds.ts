// How long the device's store may take (docs/adr/0046-store-never-waits-forever.md "The device's store never waits
// forever"). IndexedDB and WebCrypto answer through callbacks that a browser may never call
// (WebKit kept a client's save at "Saving…" for good); every step of the store that waits on
// them has a bound here, and past it the step fails with StoreTimeoutError, which the screens
// show in the user's language while the form keeps its values.
import { t } from '../session';

/** One write of records (their sealing included): a save, an upload's marking, a pull's page. */
export const STORE_WRITE_BOUND_MS = 20_000;
/** A save on this device, from the press to its answer: the wait for the store's opening (a save
 * pressed before it opens waits for it) and the save's writes together, one bound, so that the
 * user never waits the opening's bound and then a write's (useStoreSave). */
export const SAVE_BOUND_MS = 30_000;
/** One read or count (a query on sealed fields opens every candidate: thousands on a phone). */
export const STORE_READ_BOUND_MS = 30_000;
/** The store's opening: RxDB's 13 collections, 0.6-4.7 s after sign-in in WebKit. */
export const STORE_OPEN_BOUND_MS = 30_000;
/** The opening of one bulk of change events (WebCrypto decryptions of another tab's writes). */
export const EVENT_OPEN_BOUND_MS = 10_000;

export type StoreStep = 'write' | 'read' | 'open';

const MESSAGES: Record<StoreStep, string> = { write: 'store.timeout.save', read: 'store.timeout.read', open: 'store.timeout.open' };

/** Stable code the screens decide on (never the message's text). */
export const STORE_TIMEOUT_CODE = 'store.timeout';

export class StoreTimeoutError extends Error {
  readonly code = STORE_TIMEOUT_CODE;
  constructor(
    readonly step: StoreStep,
    readonly boundMs: number,
  ) {
    super(t(MESSAGES[step]));
    this.name = 'StoreTimeoutError';
  }
}

/** `work`, or a StoreTimeoutError once `ms` have passed without an answer. The work itself is
 * not stopped (IndexedDB offers no way to): if it ends later, its result is simply not awaited. */
export function withinBound<T>(work: Promise<T>, ms: number, step: StoreStep): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreTimeoutError(step, ms)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** True when `error`, or an error it wraps (RxDB `parameters`, `cause`), is a store timeout. */
export function isStoreTimeout(error: unknown, depth = 0): boolean {
  if (depth > 6 || error === null || typeof error !== 'object') return false;
  const e = error as Record<string, unknown>;
  if (e.code === STORE_TIMEOUT_CODE) return true;
  const nested: unknown[] = [e.cause, e.inner, e.error];
  if (e.parameters && typeof e.parameters === 'object') nested.push(...Object.values(e.parameters as Record<string, unknown>));
  return nested.some((inner) => inner !== error && isStoreTimeout(inner, depth + 1));
}
