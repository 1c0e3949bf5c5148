// A page that goes into the back/forward cache leaves no IndexedDB transaction behind
// (docs/adr/0046-store-never-waits-forever.md "The device's store never waits forever", the cause). WebKit (Safari, every
// iOS browser) keeps a page it caches frozen with its transactions as they were: one still in
// progress is never committed nor aborted (its commit waits for the frozen page), and every later
// transaction on the same stores, from the next page, a reload or another tab, waits behind it for
// as long as the cached page lives. Closing the connection does not release it (Dexie already
// closes its connections on such a `pagehide`); aborting the transaction does. So every
// transaction this page starts is tracked, and those still open when the page is hidden into the
// cache are aborted: what a page that unloads for good gets anyway.
type TransactionFn = IDBDatabase['transaction'];

interface Patchable {
  transaction: TransactionFn;
}

const PATCHED = Symbol.for('icrs.leaveNoTransaction');

/**
 * Tracks the transactions started through `proto` (IDBDatabase.prototype; another in tests) and
 * aborts those still open when `target` (the window) fires a `pagehide` whose page is kept
 * (`persisted`). Answers the number it would abort now (for tests) and the removal.
 */
export function leaveNoTransaction(
  proto: Patchable | undefined = typeof IDBDatabase === 'undefined' ? undefined : IDBDatabase.prototype,
  target: EventTarget | undefined = typeof window === 'undefined' ? undefined : window,
): { open: () => number; remove: () => void } {
  const open = new Set<IDBTransaction>();
  if (!proto || !target || (proto as Patchable & { [PATCHED]?: boolean })[PATCHED])
    return { open: () => open.size, remove: () => undefined };
  const original = proto.transaction;
  const tracked = function (this: IDBDatabase, ...args: Parameters<TransactionFn>): IDBTransaction {
    const transaction = original.apply(this, args);
    open.add(transaction);
    const done = () => open.delete(transaction);
    transaction.addEventListener('complete', done);
    transaction.addEventListener('abort', done);
    transaction.addEventListener('error', done);
    return transaction;
  } as TransactionFn;
  proto.transaction = tracked;
  (proto as Patchable & { [PATCHED]?: boolean })[PATCHED] = true;
  const onPagehide = (event: Event) => {
    if (!(event as PageTransitionEvent).persisted) return; // a page that unloads loses its transactions anyway
    for (const transaction of open) {
      try {
        transaction.abort();
      } catch {
        // it finished meanwhile (InvalidStateError): nothing left to release
      }
    }
    open.clear();
  };
  target.addEventListener('pagehide', onPagehide);
  return {
    open: () => open.size,
    remove: () => {
      target.removeEventListener('pagehide', onPagehide);
      proto.transaction = original;
      delete (proto as Patchable & { [PATCHED]?: boolean })[PATCHED];
    },
  };
}
