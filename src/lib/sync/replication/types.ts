// What startReplication takes and gives.
import type { Observable } from 'rxjs';
import type { HttpClient } from '../../data';
import type { IcrsDatabase } from '../../store';
import type { EventSourceFactory } from './changeStream';

export interface ReplicationOptions {
  db: IcrsDatabase;
  http: Pick<HttpClient, 'get' | 'post' | 'defaults'>;
  /** The session's JWT: names the mirror's owner (the stream opens with a ticket asked with it). */
  token: string;
  /** Spec table names to mirror; default: the 12 server-backed offline collections. */
  tables?: readonly string[];
  /** Opens the change stream; default: the browser's EventSource. Null: no stream (pulls
   * then happen at start and on `reSync()` only). */
  eventSource?: EventSourceFactory | null;
  /** Rows per pull request (the feed allows 1..1000). */
  batchSize?: number;
  /** Wait between failed pulls, ms. */
  retryTime?: number;
  /** Several tabs share one store: only the leader tab pulls (default true). */
  waitForLeadership?: boolean;
  /** Hears every table the change stream names ('*' after a reconnect), replicated or not: for
   * screens that show server figures (the dashboard) and the cached lookup lists, so that they
   * need no stream of their own. */
  onServerChange?: (table: string) => void;
  /** The change stream is open (at start, and again after a reconnect): a screen loaded before
   * it was may have missed a change, and asks again (live lists). */
  onStreamOpen?: () => void;
  /** The vault's data key: given, and where the browser has workers, the rows are sealed and
   * stored by a worker (docs/adr/0051-pull-in-a-worker.md), not on the page's main thread. */
  dataKey?: () => CryptoKey;
}

export interface Replication {
  /** Resolves once every collection pulled everything the server had when it was called. */
  awaitInSync(): Promise<void>;
  /** Pull every collection again (after coming back online, for instance). */
  reSync(): void;
  /** Pull one table again (its spec name). */
  pull(table: string): void;
  /** Pull failures (offline, 5xx); they are retried, so this is for logging. */
  error$: Observable<unknown>;
  /** A table (its spec name) pulled everything the server had: the "last update" of the screens. */
  pulled$: Observable<string>;
  stop(): Promise<void>;
}

/** How the tables are pulled: on the page (TablePull) or in a worker (workerPull.ts). */
export interface Pulls {
  request(table: string): void;
  requestAll(): void;
  awaitInSync(): Promise<void>;
  stop(): Promise<void>;
}
