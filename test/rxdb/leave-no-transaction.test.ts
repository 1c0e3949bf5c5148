// A page kept in the back/forward cache leaves no IndexedDB transaction open
// (src/lib/store/leaveNoTransaction.ts; docs/adr/0046-store-never-waits-forever.md "The device's store never waits forever"):
// WebKit freezes such a page with its transactions, and the next page's writes on the same
// stores waited behind them for good. Over fake-indexeddb: a transaction kept busy (a write
// chain, as a pull's pages or a save in progress) is aborted by a persisted `pagehide`, and
// another connection's read on its store then answers.
import { IDBDatabase as FakeIDBDatabase, IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { leaveNoTransaction } from '../../src/lib/store/leaveNoTransaction';

function openProbe(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = factory.open('probe', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('s');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

/** A readwrite transaction that never ends by itself: each put asks for the next. */
function busyWrite(db: IDBDatabase): { transaction: IDBTransaction; aborted: Promise<string> } {
  const transaction = db.transaction('s', 'readwrite');
  let n = 0;
  const step = () => {
    const put = transaction.objectStore('s').put({ n }, n % 10);
    n += 1;
    put.onsuccess = step;
    put.onerror = (event) => event.preventDefault();
  };
  step();
  const aborted = new Promise<string>((resolve) => transaction.addEventListener('abort', () => resolve('aborted')));
  return { transaction, aborted };
}

function count(db: IDBDatabase): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = db.transaction('s', 'readonly').objectStore('s').count();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const pagehide = (persisted: boolean) => Object.assign(new Event('pagehide'), { persisted });
const turns = (n: number) =>
  Array.from({ length: n }).reduce<Promise<void>>((p) => p.then(() => new Promise((r) => setImmediate(r))), Promise.resolve());

describe('leaveNoTransaction', () => {
  let remove = () => undefined as void;
  afterEach(() => remove());

  it('aborts the transactions still open when the page goes into the back/forward cache, and the next reader is answered', async () => {
    const factory = new IDBFactory();
    const page = new EventTarget();
    const tracking = leaveNoTransaction(FakeIDBDatabase.prototype as unknown as { transaction: IDBDatabase['transaction'] }, page);
    remove = tracking.remove;
    const first = await openProbe(factory);
    const { aborted } = busyWrite(first);
    await turns(5);
    expect(tracking.open()).toBe(1);
    page.dispatchEvent(pagehide(true));
    expect(tracking.open()).toBe(0);
    expect(await aborted).toBe('aborted');
    // The next page's connection: without the abort its read waited for the write for good.
    const next = await openProbe(factory);
    expect(await count(next)).toBe(0); // the aborted writes are undone: nothing half-written stays
  });

  it('leaves a page that unloads for good (not kept) to the browser, and forgets finished transactions', async () => {
    const factory = new IDBFactory();
    const page = new EventTarget();
    const tracking = leaveNoTransaction(FakeIDBDatabase.prototype as unknown as { transaction: IDBDatabase['transaction'] }, page);
    remove = tracking.remove;
    const db = await openProbe(factory);
    expect(await count(db)).toBe(0);
    await turns(5); // its transaction completes
    expect(tracking.open()).toBe(0);
    const { transaction, aborted } = busyWrite(db);
    await turns(5);
    page.dispatchEvent(pagehide(false));
    await turns(5);
    expect(tracking.open()).toBe(1);
    transaction.abort();
    await aborted;
    expect(tracking.open()).toBe(0);
  });
});
