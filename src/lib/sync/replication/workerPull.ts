// The page's side of the pull run in a worker (../pullWorker.ts, docs/adr/0051-pull-in-a-worker.md).
// The worker seals and stores the feed's rows; the page makes the feed's requests for it with
// its own HTTP client, so that every rule of a request holds as for the page's own (the token of
// now, a refused session signing out, a failure's toast decided on the request's error). A worker
// that cannot start, or does not say it has within the store's opening bound, is ended and the
// page pulls itself: the pull never waits on a worker for good. A page kept in the back/forward
// cache ends its worker (whose open transactions abort with it, ADR-0046) and starts another when
// it is shown again. The worker holds the vault's key only while the vault holds it: a vault that
// locks, or opens another user's key, ends the worker at once (fails closed).
import type { Subject } from 'rxjs';
import { STORE_OPEN_BOUND_MS } from '../../store';
import { knowOpenings, onVaultChange } from '../../vault';
import type { Pulls, ReplicationOptions } from './types';
import type { FeedCall, FromPullWorker, ToPullWorker } from './workerMessages';

/** True where the pull runs in a worker when given the vault's key: a page with workers. */
export function pullRunsInWorker(): boolean {
  return typeof Worker !== 'undefined' && typeof window !== 'undefined';
}

/** Performance marks: where this page's pull runs (for support, and the browser tests). */
export const PULL_WORKER_STARTED_MARK = 'icrs-pull:worker-started';
export const PULL_IN_PAGE_MARK = 'icrs-pull:in-page';

/** The longest the page waits for the worker's stop (its round in flight) before ending it. */
const STOP_BOUND_MS = 5_000;

/** The refused requests' errors kept for the worker's report of them (one a table is plenty). */
const FAILURES_KEPT = 32;

interface Outlets {
  errors$: Subject<unknown>;
  pulled$: Subject<string>;
}

export class WorkerPull implements Pulls {
  private worker: Worker | null = null;
  private inPage: Pulls | null = null;
  private stopped = false;
  private startTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly failures = new Map<number, unknown>();
  private readonly syncs = new Map<number, () => void>();
  private lastSync = 0;
  /** The key the worker holds, and the key this pull started with. */
  private givenKey: CryptoKey | null = null;
  private startKey: CryptoKey | null = null;
  private readonly stopVaultWatch: () => void;
  private onStopped: (() => void) | null = null;

  constructor(
    private readonly options: ReplicationOptions,
    private readonly tables: readonly string[],
    private readonly dataKey: () => CryptoKey,
    leadership: Promise<unknown>,
    private readonly outlets: Outlets,
    private readonly pullInPage: () => Pulls,
  ) {
    window.addEventListener('pagehide', this.onPagehide);
    window.addEventListener('pageshow', this.onPageshow);
    this.stopVaultWatch = onVaultChange(() => {
      if (this.worker && !this.keyStillOpen()) this.end();
    });
    // Only the leading tab pulls (replication.ts): the others start no worker.
    void leadership.then(() => this.open());
  }

  request(table: string): void {
    if (this.inPage) this.inPage.request(table);
    else this.tell({ kind: 'pull', table });
  }

  requestAll(): void {
    if (this.inPage) this.inPage.requestAll();
    else this.tell({ kind: 'pull', table: '*' });
  }

  awaitInSync(): Promise<void> {
    if (this.inPage) return this.inPage.awaitInSync();
    if (this.stopped) return Promise.resolve();
    this.lastSync += 1;
    const id = this.lastSync;
    return new Promise((resolve) => {
      this.syncs.set(id, resolve);
      this.tell({ kind: 'sync', id });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    window.removeEventListener('pagehide', this.onPagehide);
    window.removeEventListener('pageshow', this.onPageshow);
    this.stopVaultWatch();
    this.settleSyncs();
    if (this.inPage) return this.inPage.stop();
    const worker = this.worker;
    if (!worker) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, STOP_BOUND_MS);
      this.onStopped = () => {
        clearTimeout(timer);
        resolve();
      };
      worker.postMessage({ kind: 'stop' } satisfies ToPullWorker);
    });
    this.end();
  }

  private open(): void {
    if (this.stopped || this.inPage || this.worker) return;
    // Only under the key this pull started with: a vault locked, or opened again since (the lock
    // reloads the page into the lock screen), gives none, and nothing is sealed here or there.
    const key = this.openKey();
    if (!key || (this.startKey && key !== this.startKey)) {
      console.warn('The pull waits: the vault is locked, or holds another key than at its start');
      return;
    }
    this.startKey = key;
    let worker: Worker;
    try {
      worker = new Worker(new URL('../pullWorker.ts', import.meta.url), { type: 'module', name: 'icrs-pull' });
    } catch (error) {
      this.fallBack(error);
      return;
    }
    this.worker = worker;
    this.givenKey = key;
    worker.onmessage = (event: MessageEvent<FromPullWorker>) => this.heard(worker, event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.fallBack(event.message);
    };
    this.startTimer = setTimeout(() => this.fallBack(`no answer in ${STORE_OPEN_BOUND_MS} ms`), STORE_OPEN_BOUND_MS);
    const { batchSize, retryTime } = this.options;
    this.tell({
      kind: 'start',
      storeName: this.options.db.name,
      key,
      token: this.options.token,
      baseURL: this.options.http.defaults.baseURL ?? '/api',
      tables: this.tables,
      ...(batchSize ? { batchSize } : {}),
      ...(retryTime ? { retryTime } : {}),
    });
    for (const id of this.syncs.keys()) this.tell({ kind: 'sync', id }); // asked of a worker the page ended
  }

  private tell(message: ToPullWorker): void {
    this.worker?.postMessage(message);
  }

  private heard(worker: Worker, message: FromPullWorker): void {
    if (worker !== this.worker) return;
    switch (message.kind) {
      case 'http':
        this.call(worker, message);
        return;
      case 'started':
        clearTimeout(this.startTimer);
        performance.mark(PULL_WORKER_STARTED_MARK);
        return;
      case 'failed':
        this.fallBack(message.message);
        return;
      case 'pulled':
        this.outlets.pulled$.next(message.table);
        return;
      case 'sealed':
        knowOpenings(message.pairs);
        return;
      case 'error': {
        const failure = message.call === null ? undefined : this.failures.get(message.call);
        if (message.call !== null) this.failures.delete(message.call);
        this.outlets.errors$.next(failure ?? new Error(message.message));
        return;
      }
      case 'inSync':
        this.syncs.get(message.id)?.();
        this.syncs.delete(message.id);
        return;
      case 'stopped':
        this.onStopped?.();
        return;
    }
  }

  /** Makes a feed request for the worker, through the page's HTTP client and its rules. */
  private call(worker: Worker, call: FeedCall): void {
    const config = { ...(call.params ? { params: call.params } : {}), silent: true };
    const request = call.method === 'get' ? this.options.http.get(call.url, config) : this.options.http.post(call.url, call.body, config);
    request.then(
      ({ data }) => {
        if (worker === this.worker) worker.postMessage({ kind: 'answer', id: call.id, data } satisfies ToPullWorker);
      },
      (error: unknown) => {
        this.failures.set(call.id, error);
        if (this.failures.size > FAILURES_KEPT) this.failures.delete(this.failures.keys().next().value!);
        if (worker === this.worker) worker.postMessage({ kind: 'refused', id: call.id, message: String(error) } satisfies ToPullWorker);
      },
    );
  }

  /** The worker could not pull: the page does, from the checkpoints the worker left (its
   * TablePulls wait for the tab's leadership themselves). */
  private fallBack(reason: unknown): void {
    if (this.stopped || this.inPage) return;
    console.warn('The pull runs on the page: its worker did not start:', reason);
    performance.mark(PULL_IN_PAGE_MARK);
    this.end();
    this.inPage = this.pullInPage();
    for (const [id, resolve] of this.syncs)
      void this.inPage
        .awaitInSync()
        .then(resolve, resolve)
        .finally(() => this.syncs.delete(id));
  }

  private end(): void {
    clearTimeout(this.startTimer);
    this.worker?.terminate();
    this.worker = null;
    this.givenKey = null;
  }

  private keyStillOpen(): boolean {
    return this.openKey() === this.givenKey;
  }

  /** The vault's key now (null: locked). */
  private openKey(): CryptoKey | null {
    try {
      return this.dataKey();
    } catch {
      return null;
    }
  }

  private settleSyncs(): void {
    for (const resolve of this.syncs.values()) resolve();
    this.syncs.clear();
  }

  private readonly onPagehide = (event: PageTransitionEvent) => {
    if (event.persisted && !this.inPage) this.end();
  };

  private readonly onPageshow = (event: PageTransitionEvent) => {
    if (event.persisted) this.open();
  };
}
