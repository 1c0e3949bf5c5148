// Live pull replication (design.md §6, issue 4 §4, issue 10 §2): each server-backed offline
// collection mirrors GET /api/sync/{table} from a checkpoint (updatedAt, key), and one
// server-sent event stream (GET /api/sync/stream) tells every collection when its table
// changed. Pull only: local changes go up through the upload engine.
//
// Every pulled row is written by a compare-and-set on the stored document (docs/offline-contract.md
// "Pull replication"): the row is decided on the state read just before, and the write names that
// state as its `previous`, so RxDB refuses it if anything (the upload engine, an edit) wrote in
// between; the row is then decided again on the new state. A pending document is never written.
// A row met while its document was pending is owed to the device (owed.ts) until written: a
// reload or a dropped edit cannot make the feed skip a record for good.
import type { RxCollection } from 'rxdb';
import { filter, Observable, share, Subject, type Subscription } from 'rxjs';
import type { EntityShape } from '../../../schemas/define';
import { compareAndSet, heldIsSameOrNewer, isPending, storedDoc, syncedDoc, type DocData, type StoredDoc, type WriteDecision } from '../datalayer/docs';
import type { HttpClient } from '../datalayer/types';
import { collectionOf, OFFLINE_ENTITIES, type IcrsDatabase } from './collections';
import { owedChanges$, owedKeys, oweServerCopy, settleOwed } from './owed';
import { inPieces, yieldToBrowser } from '../mainThread';

export interface Checkpoint {
  updatedAt: string;
  id: string;
}

interface PullAnswer {
  documents: (Record<string, unknown> & { _deleted?: boolean })[];
  checkpoint: Checkpoint | null;
}

type PulledDoc = DocData & { _deleted: boolean };

/** The part of EventSource the stream uses, so that tests (Node has none) can pass their own. */
export interface EventSourceLike {
  /** 0 connecting, 1 open, 2 closed (the browser will not reconnect). */
  readonly readyState?: number;
  addEventListener(type: 'change' | 'open' | 'error', listener: (event: { data?: unknown }) => void): void;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

/** The address the change stream opens at, with a fresh single-use ticket each time (issue 26
 * §3: never the session token, which a proxy's access log would keep). */
export type StreamUrl = () => Promise<string>;

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
}

export interface Replication {
  /** Resolves once every collection pulled everything the server had when it was called. */
  awaitInSync(): Promise<void>;
  /** Pull every collection again (after coming back online, for instance). */
  reSync(): void;
  /** Pull failures (offline, 5xx); they are retried, so this is for logging. */
  error$: Observable<unknown>;
  /** A table (its spec name) pulled everything the server had: the "last update" of the screens. */
  pulled$: Observable<string>;
  stop(): Promise<void>;
}

/** The tables this app mirrors: every offline collection the server has (not `files`). */
export const REPLICATED_ENTITIES: readonly EntityShape[] = OFFLINE_ENTITIES.filter((e) => e.server);

/** Rows written in one piece: storing a document costs the main thread ~1 ms on a phone-class
 * CPU (RxDB, sealing, IndexedDB's copy), so a piece stays well under the 50 ms of a long task
 * and the browser answers input between two pieces (issue 27; bench/first-signin.bench.ts). */
const WRITE_PIECE = 25;

/** Stream event naming every table: after a reconnect, changes may have been missed. */
const ALL_TABLES = '*';
const DEFAULT_BATCH = 200;

/** The user of a JWT (its `sub`), read without verifying: it only names the checkpoints, so
 * that another user signing in on this device starts a mirror of their own scope. */
export function tokenSubject(token: string): string {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : 'unknown';
  } catch {
    return 'unknown';
  }
}

function apiBase(http: ReplicationOptions['http']): string {
  return (http.defaults.baseURL ?? '/api').replace(/\/+$/, '');
}

function tableOf(data: unknown): string | undefined {
  try {
    const table = (JSON.parse(String(data)) as { table?: unknown }).table;
    return typeof table === 'string' ? table : undefined;
  } catch {
    return undefined; // a malformed event is ignored; the next one or a reconnect resyncs
  }
}

/** EventSource.CLOSED: the browser gave up on the stream and will not reconnect by itself. */
const CLOSED = 2;
const REOPEN_FIRST_MS = 1_000;
const REOPEN_MAX_MS = 30_000;

/**
 * One EventSource for every collection: opened with the first subscriber, closed with the last.
 * A reconnect, by the browser or by us, is answered with every table ('*'): what changed
 * meanwhile is unknown. The browser reconnects by itself after a dropped connection, but gives
 * up for good after an answer that is not 200 (a 503 while the server's database is away, a
 * restart behind a proxy): then a new EventSource is opened, after a pause that doubles up to
 * 30 s, so live lists never stop for good.
 */
export function changeStream(streamUrl: StreamUrl, open: EventSourceFactory, onOpen?: () => void): Observable<string> {
  return new Observable<string>((subscriber) => {
    let source: EventSourceLike | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pause = REOPEN_FIRST_MS;
    let broken = false;
    let closed = false;
    const retry = () => {
      timer = setTimeout(connect, pause);
      pause = Math.min(pause * 2, REOPEN_MAX_MS);
    };
    // A ticket serves once: a reconnect of the browser's own is refused (401) and closes the
    // source, and a new one is opened here with a new ticket.
    const connect = () => {
      streamUrl().then((url) => {
        if (closed) return;
        attach(open(url));
      }, () => {
        broken = true;
        if (!closed) retry();
      });
    };
    const attach = (current: EventSourceLike) => {
      source = current;
      current.addEventListener('change', (event) => {
        const table = tableOf(event.data);
        if (table) subscriber.next(table);
      });
      current.addEventListener('error', () => {
        broken = true;
        if (current.readyState !== CLOSED || source !== current) return;
        current.close();
        retry();
      });
      current.addEventListener('open', () => {
        pause = REOPEN_FIRST_MS;
        onOpen?.();
        if (broken) subscriber.next(ALL_TABLES);
        broken = false;
      });
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(timer);
      source?.close();
    };
  }).pipe(share());
}

function defaultEventSource(): EventSourceFactory | null {
  return typeof EventSource === 'undefined' ? null : (url) => new EventSource(url);
}

function pulledDoc(entity: EntityShape, row: PullAnswer['documents'][number]): PulledDoc {
  return { ...syncedDoc(entity, row), _deleted: row._deleted === true };
}

/** The most owed keys asked in one request (the server takes 200). */
const OWED_BATCH = 200;

/** The server's current rows of some keys; a key it does not answer is gone from the device's
 * scope (deleted, or never stored), so it comes back as a deletion. */
async function fetchKeys(http: ReplicationOptions['http'], entity: EntityShape, primary: string, keys: readonly string[]): Promise<PulledDoc[]> {
  const { data } = await http.post<{ documents: PullAnswer['documents'] }>(`/sync/${encodeURIComponent(entity.table)}/keys`, { keys }, { silent: true });
  const rows = data.documents.map((row) => pulledDoc(entity, row));
  const found = new Set(rows.map((row) => String(row[primary])));
  const gone = keys.filter((key) => !found.has(key)).map((key): PulledDoc => ({ [primary]: key, _deleted: true }));
  return [...rows, ...gone];
}

async function fetchBatch(http: ReplicationOptions['http'], entity: EntityShape, checkpoint: Checkpoint | undefined, batchSize: number) {
  const params = { limit: batchSize, ...(checkpoint ? { updatedAt: checkpoint.updatedAt, id: checkpoint.id } : {}) };
  // Silent: a background pull failing (no network) is retried, not toasted every 5 s.
  const { data } = await http.get<PullAnswer>(`/sync/${encodeURIComponent(entity.table)}`, { params, silent: true });
  return { documents: data.documents.map((row) => pulledDoc(entity, row)), checkpoint: data.checkpoint ?? checkpoint };
}

/**
 * The one rule of a pull, applied to the state the write will be checked against:
 * - a pending document is work not uploaded yet: never written (the row is held, see below);
 * - absent or removed (the engine settled it): the server's copy, as `synced`;
 * - a synced copy: replaced by a newer server copy, removed when the server deleted the row.
 */
export function decide(stored: StoredDoc | undefined, row: PulledDoc): WriteDecision {
  const live = stored && !stored._deleted ? stored : undefined;
  if (live && isPending(live as DocData)) return { kind: 'hold' };
  if (row._deleted) return live ? { kind: 'write', document: { ...live, _deleted: true } } : { kind: 'keep' };
  if (live && heldIsSameOrNewer(live, row)) return { kind: 'keep' };
  return { kind: 'write', document: storedDoc({ ...row, _deleted: false }, stored) };
}

/** Local documents of the database: one per table, user and store epoch, holding the checkpoint. */
function checkpointId(table: string, identity: string, epoch: number): string {
  return `pull-checkpoint|${epoch}|${table}|${identity}`;
}

/** The store's epoch names the checkpoints in use: a new epoch starts every pull from the
 * beginning. Kept in a local document so that every tab and every later start sees it. */
const EPOCH_ID = 'pull-epoch';

async function storeEpoch(db: IcrsDatabase): Promise<number> {
  const saved = await db.getLocal<{ epoch: number }>(EPOCH_ID);
  return (saved?.get('epoch') as number | undefined) ?? 0;
}

/**
 * Forgets every pull checkpoint (after 'Reset Database' emptied the store): the next pull of
 * each table takes every row the server has again. A round in flight may still save its
 * checkpoint, but under the old epoch, which nothing reads any more.
 */
export async function forgetPullCheckpoints(db: IcrsDatabase): Promise<void> {
  await db.upsertLocal(EPOCH_ID, { epoch: (await storeEpoch(db)) + 1 });
}

function sleep(ms: number, wake: Observable<unknown>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      sub.unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const sub = wake.subscribe(done);
  });
}

/**
 * One table's pull: requests are numbered; a pull round takes every row after the checkpoint,
 * then the rounds asked for meanwhile run once more. Failures are retried after `retryTime`
 * (sooner when asked again), forever, until stopped.
 */
class TablePull {
  private asked = 0;
  private finished = 0;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly waiters: { round: number; resolve: () => void }[] = [];
  private readonly wake$ = new Subject<void>();
  /** Rows that met a pending document, by key: applied when that document stops being pending. */
  private readonly held = new Map<string, PulledDoc>();
  /** The owed keys of this table (owed.ts), as last seen in the store. */
  private owed = new Set<string>();
  private readonly subscriptions: Subscription[] = [];

  constructor(
    private readonly options: ReplicationOptions,
    private readonly entity: EntityShape,
    private readonly collection: RxCollection<DocData>,
    private readonly identity: string,
    private readonly errors$: Subject<unknown>,
    private readonly pulled$: Subject<string>,
    private readonly leadership: Promise<unknown>,
  ) {
    // The engine settles a record by removing it (or a user discards it): a held row then
    // brings the server's copy, decided again at its own write like any pulled row.
    // An owed record settled without a held row (after a reload, or a dropped edit) is asked
    // for by key in a pull round.
    const settled = (event: { operation: string; documentData: unknown }) => event.operation === 'DELETE' || !isPending(event.documentData as DocData);
    this.subscriptions.push(
      collection.$.pipe(filter((event) => (this.held.has(event.documentId) || this.owed.has(event.documentId)) && settled(event))).subscribe((event) => {
        const row = this.held.get(event.documentId);
        this.held.delete(event.documentId);
        if (row) void this.apply([row]).catch((error: unknown) => this.errors$.next(error));
        else void this.request();
      }),
      owedChanges$(options.db, entity.table).subscribe((doc) => {
        this.owed = new Set(((doc as { get(path: string): unknown } | null)?.get('keys') as string[] | undefined) ?? []);
        void this.owedDue().then(
          (due) => void (due.length && this.request()),
          (error: unknown) => this.errors$.next(error),
        );
      }),
    );
  }

  /** Asks for a pull round; answers when one that started after this call has finished. */
  request(): Promise<void> {
    this.asked += 1;
    const round = this.asked;
    const done = new Promise<void>((resolve) => {
      if (this.stopped) resolve();
      else this.waiters.push({ round, resolve });
    });
    this.wake$.next();
    this.running ??= this.loop().finally(() => (this.running = null));
    return done;
  }

  /** Stops pulling; answers once the round in flight has ended (its writes done or refused). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.subscriptions.forEach((s) => s.unsubscribe());
    this.wake$.next();
    this.waiters.splice(0).forEach((w) => w.resolve());
    await this.running;
  }

  private get primary(): string {
    return this.collection.schema.primaryPath as string;
  }

  /** Writes rows in pieces of WRITE_PIECE, letting the browser draw and answer input between. */
  private async apply(rows: readonly PulledDoc[]): Promise<void> {
    for (const piece of inPieces(rows, WRITE_PIECE)) {
      if (rows.length > WRITE_PIECE) await yieldToBrowser();
      await this.applyPiece(piece);
    }
  }

  /** Writes rows; those meeting a pending document wait in `held`, and are owed in the store
   * until written. A document settled between the decision and the registration would tell
   * nobody, so the held keys are read once more after registering, and those no longer pending
   * are applied again. */
  private async applyPiece(rows: readonly PulledDoc[]): Promise<void> {
    const primary = this.primary;
    let todo = rows;
    while (todo.length) {
      const held = (await compareAndSet(this.collection, todo, (stored, row) => decide(stored, row as PulledDoc))) as PulledDoc[];
      for (const row of held) this.held.set(String(row[primary]), row);
      const keys = held.map((row) => String(row[primary]));
      await oweServerCopy(this.options.db, this.entity.table, keys);
      const stored = keys.length ? await this.collection.storageInstance.findDocumentsById(keys, true) : [];
      const settled = new Set(stored.filter((d) => d._deleted || !isPending(d as DocData)).map((d) => String(d[primary as keyof StoredDoc])));
      todo = held.filter((row) => settled.has(String(row[primary])) && this.held.delete(String(row[primary])));
    }
    const written = rows.map((row) => String(row[primary])).filter((key) => this.owed.has(key) && !this.held.has(key));
    await settleOwed(this.options.db, this.entity.table, written);
  }

  /** Owed keys whose document is no longer pending and whose row is not held here. */
  private async owedDue(): Promise<string[]> {
    const owed = (await owedKeys(this.options.db, this.entity.table)).filter((key) => !this.held.has(key));
    if (!owed.length) return [];
    const stored = await this.collection.storageInstance.findDocumentsById(owed, false);
    const pending = new Set(stored.filter((d) => isPending(d as DocData)).map((d) => String(d[this.primary as keyof StoredDoc])));
    return owed.filter((key) => !pending.has(key));
  }

  /** Asks the server for the rows owed to the device, and writes them like pulled rows. */
  private async pullOwed(): Promise<void> {
    const due = await this.owedDue();
    for (let i = 0; i < due.length && !this.stopped; i += OWED_BATCH) {
      const rows = await fetchKeys(this.options.http, this.entity, this.primary, due.slice(i, i + OWED_BATCH));
      if (this.stopped) return;
      this.owed = new Set([...this.owed, ...due]); // settled by apply once written
      await this.apply(rows);
    }
  }

  private async loop(): Promise<void> {
    await Promise.race([this.leadership, new Promise((resolve) => this.wake$.pipe(filter(() => this.stopped)).subscribe(resolve))]);
    while (!this.stopped && this.finished < this.asked) {
      const round = this.asked;
      try {
        await this.pullAll();
        this.finished = round;
        this.settleWaiters();
        this.pulled$.next(this.entity.table);
      } catch (error) {
        if (this.stopped) break;
        this.errors$.next(error);
        await sleep(this.options.retryTime ?? 5000, this.wake$);
      }
    }
  }

  private settleWaiters(): void {
    for (let i = this.waiters.length - 1; i >= 0; i -= 1) {
      const waiter = this.waiters[i] as (typeof this.waiters)[number];
      if (waiter.round <= this.finished) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }

  private async pullAll(): Promise<void> {
    const id = checkpointId(this.entity.table, this.identity, await storeEpoch(this.options.db));
    const saved = await this.options.db.getLocal<{ checkpoint: Checkpoint }>(id);
    let checkpoint = saved?.get('checkpoint') as Checkpoint | undefined;
    const batchSize = this.options.batchSize ?? DEFAULT_BATCH;
    await this.pullOwed();
    for (;;) {
      const answer = await fetchBatch(this.options.http, this.entity, checkpoint, batchSize);
      if (this.stopped) return;
      await this.apply(answer.documents);
      if (answer.checkpoint && answer.checkpoint !== checkpoint) {
        checkpoint = answer.checkpoint;
        await this.options.db.upsertLocal(id, { checkpoint });
      }
      if (answer.documents.length < batchSize) return;
    }
  }
}

function selectedEntities(tables?: readonly string[]): readonly EntityShape[] {
  if (!tables) return REPLICATED_ENTITIES;
  const unknown = tables.filter((t) => !REPLICATED_ENTITIES.some((e) => e.table === t));
  if (unknown.length) throw new Error(`not replicated tables: ${unknown.join(', ')}`);
  return REPLICATED_ENTITIES.filter((e) => tables.includes(e.table));
}

/** Starts pulling. Call it when the app is online and signed in; `stop()` on logout or offline. */
export function startReplication(options: ReplicationOptions): Replication {
  const base = apiBase(options.http);
  const open = options.eventSource === undefined ? defaultEventSource() : options.eventSource;
  const streamUrl: StreamUrl = async () => {
    const { data } = await options.http.post<{ ticket: string }>('/sync/ticket', {}, { silent: true });
    return `${base}/sync/stream?ticket=${encodeURIComponent(data.ticket)}`;
  };
  const changes$ = open ? changeStream(streamUrl, open, options.onStreamOpen) : null;
  const identity = `${base}|${tokenSubject(options.token)}`;
  const errors$ = new Subject<unknown>();
  const pulled$ = new Subject<string>();
  // Several tabs share one store: only the leader pulls (the others see its writes).
  const leadership = (options.waitForLeadership ?? true) && options.db.multiInstance ? options.db.waitForLeadership() : Promise.resolve(true);
  const pulls = selectedEntities(options.tables).map(
    (entity) => new TablePull(options, entity, collectionOf(options.db, entity) as RxCollection<DocData>, identity, errors$, pulled$, leadership),
  );
  const streamSub = changes$?.subscribe((table) => {
    options.onServerChange?.(table);
    for (const [i, entity] of selectedEntities(options.tables).entries()) {
      if (table === ALL_TABLES || table === entity.table) void pulls[i]?.request();
    }
  });
  const started = pulls.map((p) => p.request());
  void Promise.all(started);
  return {
    async awaitInSync() {
      await Promise.all(pulls.map((p) => p.request()));
    },
    reSync: () => pulls.forEach((p) => void p.request()),
    error$: errors$.asObservable(),
    pulled$: pulled$.asObservable(),
    async stop() {
      streamSub?.unsubscribe(); // the EventSource closes with its last subscriber
      await Promise.all(pulls.map((p) => p.stop()));
    },
  };
}
