// Live pull replication (design.md §6, issue 4 §4): each server-backed offline collection
// mirrors GET /api/sync/{table} from a checkpoint (updatedAt, key), and one server-sent event
// stream (GET /api/sync/stream) tells every collection when its table changed. Pull only:
// local changes go up through the upload engine, never through RxDB replication.
import type { RxCollection } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import { filter, map, merge, Observable, share } from 'rxjs';
import type { EntityShape } from '../../../schemas/define';
import { isPending, syncedDoc, type DocData } from '../datalayer/docs';
import type { HttpClient } from '../datalayer/types';
import { collectionOf, OFFLINE_ENTITIES, type IcrsDatabase } from './database';

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
  addEventListener(type: 'change' | 'open' | 'error', listener: (event: { data?: unknown }) => void): void;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

export interface ReplicationOptions {
  db: IcrsDatabase;
  http: Pick<HttpClient, 'get' | 'defaults'>;
  /** The session's JWT: EventSource sends no headers, so the stream takes it in its URL. */
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
}

export interface Replication {
  /** Resolves once every collection pulled everything the server had when it was called. */
  awaitInSync(): Promise<void>;
  /** Pull every collection again (after coming back online, for instance). */
  reSync(): void;
  /** Pull failures (offline, 5xx); they are retried, so this is for logging. */
  error$: Observable<unknown>;
  stop(): Promise<void>;
}

/** The tables this app mirrors: every offline collection the server has (not `files`). */
export const REPLICATED_ENTITIES: readonly EntityShape[] = OFFLINE_ENTITIES.filter((e) => e.server);

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

/** One EventSource for every collection: opened with the first subscriber, closed with the last. */
export function changeStream(url: string, open: EventSourceFactory): Observable<string> {
  return new Observable<string>((subscriber) => {
    const source = open(url);
    let broken = false;
    source.addEventListener('change', (event) => {
      const table = tableOf(event.data);
      if (table) subscriber.next(table);
    });
    source.addEventListener('error', () => {
      broken = true; // EventSource reconnects by itself; what happened meanwhile is unknown
    });
    source.addEventListener('open', () => {
      if (broken) subscriber.next(ALL_TABLES);
      broken = false;
    });
    return () => source.close();
  }).pipe(share());
}

function defaultEventSource(): EventSourceFactory | null {
  return typeof EventSource === 'undefined' ? null : (url) => new EventSource(url);
}

function pulledDoc(entity: EntityShape, row: PullAnswer['documents'][number]): PulledDoc {
  return { ...syncedDoc(entity, row), _deleted: row._deleted === true };
}

function pullHandler(http: ReplicationOptions['http'], entity: EntityShape) {
  return async (checkpoint: Checkpoint | undefined, batchSize: number) => {
    const params = { limit: batchSize, ...(checkpoint ? { updatedAt: checkpoint.updatedAt, id: checkpoint.id } : {}) };
    // Silent: a background pull failing (no network) is retried, not toasted every 5 s.
    const { data } = await http.get<PullAnswer>(`/sync/${encodeURIComponent(entity.table)}`, { params, silent: true });
    return { documents: data.documents.map((row) => pulledDoc(entity, row)), checkpoint: data.checkpoint ?? checkpoint };
  };
}

/**
 * A pulled row never replaces (nor deletes) a local `pending` document: that is work not
 * uploaded yet. Answering the local state makes RxDB see "no change" and write nothing.
 */
function keepPending(collection: RxCollection<unknown>) {
  const primary = collection.schema.primaryPath as string;
  return async (incoming: PulledDoc): Promise<PulledDoc> => {
    const local = await collection.findOne(String(incoming[primary])).exec();
    return local && isPending(local as unknown as DocData) ? { ...(local.toMutableJSON() as DocData), _deleted: false } : incoming;
  };
}

function replicate(options: ReplicationOptions, entity: EntityShape, changes$: Observable<string> | null, identity: string) {
  const collection = collectionOf(options.db, entity);
  const table = entity.table;
  const stream$ = changes$?.pipe(
    filter((t) => t === table || t === ALL_TABLES),
    map(() => 'RESYNC' as const),
  );
  return replicateRxCollection<DocData, Checkpoint>({
    collection,
    replicationIdentifier: `icrs-pull|${table}|${identity}`,
    deletedField: '_deleted',
    live: true,
    retryTime: options.retryTime ?? 5000,
    waitForLeadership: options.waitForLeadership ?? true,
    pull: { handler: pullHandler(options.http, entity), batchSize: options.batchSize ?? DEFAULT_BATCH, modifier: keepPending(collection), stream$ },
  });
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
  const changes$ = open ? changeStream(`${base}/sync/stream?token=${encodeURIComponent(options.token)}`, open) : null;
  const identity = `${base}|${tokenSubject(options.token)}`;
  const states: RxReplicationState<DocData, Checkpoint>[] = selectedEntities(options.tables).map((e) => replicate(options, e, changes$, identity));
  return {
    async awaitInSync() {
      await Promise.all(states.map((s) => s.awaitInSync()));
    },
    reSync: () => states.forEach((s) => s.reSync()),
    error$: merge(...states.map((s) => s.error$)),
    async stop() {
      await Promise.all(states.map((s) => s.cancel())); // unsubscribes every stream$: the EventSource closes
    },
  };
}
