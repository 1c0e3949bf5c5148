// The pull's worker (docs/adr/0051-pull-in-a-worker.md): the same pull as the page's
// (replication.ts, TablePull), run in a dedicated worker on an RxDB database of its own over the
// same IndexedDB store, so that sealing and storing the feed's rows leaves the page's main
// thread to the screens. The page keeps what has rules of its own: the feed's requests go
// through its HTTP client (the session's token as it is now, sign-out on a refused session, the
// forbidden page), the change stream, and the leadership among tabs. The page's store hears
// this worker's writes as it hears another tab's (RxDB's multi-instance channel).
import type { AxiosRequestConfig } from 'axios';
import type { HttpClient } from '../data';
import { loadStoreCode, type IcrsDatabase, type Sealer } from '../store';
import { openText, sealText } from '../util';
import { startReplication } from './replication';
import type { Replication } from './replication/types';
import type { FeedCall, FromPullWorker, ToPullWorker } from './replication/workerMessages';

/** The worker's global scope (the app's TypeScript libraries are the page's, not a worker's). */
const scope = self as unknown as {
  postMessage(message: FromPullWorker): void;
  onmessage: ((event: MessageEvent<ToPullWorker>) => void) | null;
};

/** A request the page refused: its error (an axios error, with its rules applied) stays there. */
class RefusedCall extends Error {
  constructor(
    readonly call: number,
    message: string,
  ) {
    super(message);
  }
}

const calls = new Map<number, { resolve: (data: unknown) => void; reject: (error: unknown) => void }>();
let lastCall = 0;

function feedCall(method: FeedCall['method'], url: string, body: unknown, config?: AxiosRequestConfig): Promise<{ data: never }> {
  lastCall += 1;
  const id = lastCall;
  const params = config?.params as Record<string, unknown> | undefined;
  scope.postMessage({ kind: 'http', id, method, url, ...(params ? { params } : {}), ...(body === undefined ? {} : { body }) });
  return new Promise((resolve, reject) => calls.set(id, { resolve: (data) => resolve({ data: data as never }), reject }));
}

/** The feed's requests, made by the page (its client's base address given at the start: the
 * pull's checkpoints are named after it). */
const http = {
  defaults: { baseURL: '/api' },
  get: (url: string, config?: AxiosRequestConfig) => feedCall('get', url, undefined, config),
  post: (url: string, body?: unknown, config?: AxiosRequestConfig) => feedCall('post', url, body, config),
} as unknown as Pick<HttpClient, 'get' | 'post' | 'defaults'>;

/** What this worker sealed since the last message, with its JSON: the page's store opens the
 * worker's writes without decrypting them (src/lib/vault knowOpenings). Told as soon as sealed,
 * so they reach the page before the writes' change events as a rule (those leave once IndexedDB
 * has stored the rows); a text told too late is decrypted on the page, as any other. */
let sealedLately: [string, string][] = [];
/** Larger values (a photo's bytes) are not told: the page's memory holds what it is told until
 * the write's event comes, and photos are a small share of the rows. */
const TOLD_JSON_MAX_CHARS = 16_384;

function tellSealed(): void {
  scope.postMessage({ kind: 'sealed', pairs: sealedLately });
  sealedLately = [];
}

/** Sealed as the vault seals (src/lib/vault sealJson): AES-GCM of the JSON under the data key. */
function sealerOf(key: CryptoKey): Sealer {
  return {
    async seal(value) {
      const json = JSON.stringify(value);
      const sealed = await sealText(key, json);
      if (json.length > TOLD_JSON_MAX_CHARS) return sealed; // a photo: the page decrypts it
      if (!sealedLately.length) setTimeout(tellSealed, 0);
      sealedLately.push([sealed, json]);
      return sealed;
    },
    open: async (sealed) => JSON.parse(await openText(key, sealed)) as Record<string, unknown>,
  };
}

let running: { db: IcrsDatabase; replication: Replication } | null = null;
/** The replication once the store is open (null: the start failed). */
let starting: Promise<Replication | null> | null = null;

async function start(message: Extract<ToPullWorker, { kind: 'start' }>): Promise<Replication> {
  http.defaults.baseURL = message.baseURL;
  const { createIcrsDb } = await loadStoreCode();
  const db = await createIcrsDb({ name: message.storeName, sealer: sealerOf(message.key) });
  scope.postMessage({ kind: 'started' });
  const replication = startReplication({
    db,
    http,
    token: message.token,
    tables: message.tables,
    eventSource: null, // the page listens to the change stream and asks for its tables
    waitForLeadership: false, // the page starts this worker once its tab leads
    ...(message.batchSize ? { batchSize: message.batchSize } : {}),
    ...(message.retryTime ? { retryTime: message.retryTime } : {}),
  });
  replication.pulled$.subscribe((table) => scope.postMessage({ kind: 'pulled', table }));
  replication.error$.subscribe((error: unknown) =>
    scope.postMessage({ kind: 'error', call: error instanceof RefusedCall ? error.call : null, message: String(error) }),
  );
  running = { db, replication };
  return replication;
}

async function stop(): Promise<void> {
  await starting;
  const stopping = running;
  running = null;
  if (stopping) {
    // The round in flight ends first (its requests still answered by the page), then the store closes.
    await stopping.replication.stop();
    await stopping.db.close();
  }
  for (const [id, call] of calls) call.reject(new RefusedCall(id, 'The pull stopped'));
  calls.clear();
  scope.postMessage({ kind: 'stopped' });
}

/** The running replication (null: the start failed, or it stopped). */
async function whenRunning(): Promise<Replication | null> {
  return (await starting) && (running?.replication ?? null);
}

function answer(id: number, settle: (call: { resolve: (data: unknown) => void; reject: (error: unknown) => void }) => void): void {
  const call = calls.get(id);
  calls.delete(id);
  if (call) settle(call);
}

scope.onmessage = ({ data: message }) => {
  switch (message.kind) {
    case 'start':
      starting = start(message).catch((error: unknown) => {
        scope.postMessage({ kind: 'failed', message: String(error) });
        return null;
      });
      return;
    case 'pull': {
      // Asked while the store opens: the round goes once it is open.
      const { table } = message;
      void whenRunning().then((replication) => (table === '*' ? replication?.reSync() : replication?.pull(table)));
      return;
    }
    case 'sync':
      void whenRunning()
        .then((replication) => replication?.awaitInSync())
        .then(() => scope.postMessage({ kind: 'inSync', id: message.id }));
      return;
    case 'answer':
      answer(message.id, (call) => call.resolve(message.data));
      return;
    case 'refused':
      answer(message.id, (call) => call.reject(new RefusedCall(message.id, message.message)));
      return;
    case 'stop':
      void stop();
      return;
  }
};
