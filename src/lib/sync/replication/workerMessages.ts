// What the page and the pull's worker tell each other (workerPull.ts, ../pullWorker.ts;
// docs/adr/0051-pull-in-a-worker.md). Plain data: every message crosses `postMessage`.

/** A request of the feed, made by the page for the worker (the page's HTTP client and its rules). */
export interface FeedCall {
  kind: 'http';
  id: number;
  method: 'get' | 'post';
  url: string;
  params?: Record<string, unknown>;
  body?: unknown;
}

export type ToPullWorker =
  | {
      kind: 'start';
      storeName: string;
      /** The vault's data key (not extractable: `postMessage` hands the key, never its bytes). */
      key: CryptoKey;
      token: string;
      /** The page's HTTP client's base address. */
      baseURL: string;
      tables: readonly string[];
      batchSize?: number;
      retryTime?: number;
    }
  /** Pull a table again ('*': every table). */
  | { kind: 'pull'; table: string }
  /** Answer when every table has pulled what the server has now. */
  | { kind: 'sync'; id: number }
  | { kind: 'answer'; id: number; data: unknown }
  | { kind: 'refused'; id: number; message: string }
  | { kind: 'stop' };

export type FromPullWorker =
  | FeedCall
  /** The worker's store is open. */
  | { kind: 'started' }
  /** The worker could not open the store or start: the page pulls itself. */
  | { kind: 'failed'; message: string }
  | { kind: 'pulled'; table: string }
  /** Texts the worker sealed, with the JSON each seals (src/lib/vault knowOpenings). */
  | { kind: 'sealed'; pairs: [sealed: string, json: string][] }
  /** A pull failed; `call` names the refused request whose error the page keeps. */
  | { kind: 'error'; call: number | null; message: string }
  | { kind: 'inSync'; id: number }
  | { kind: 'stopped' };
