// Live pull replication (product.md §D6, ADR-0015): each server-backed offline
// collection mirrors GET /api/sync/{table} from a checkpoint (updatedAt, key), and one
// server-sent event stream (GET /api/sync/stream) tells every collection when its table
// changed. Pull only: local changes go up through the upload engine.
//
// This file starts the replication and is the module's public entry; its parts, in replication/,
// import one way (tablePull → fetchers → checkpoints; types → changeStream), never this file:
// - changeStream.ts: the server-sent event stream and its reconnects;
// - checkpoints.ts: where each table's pull goes on from (per user and store epoch);
// - fetchers.ts: the feed's two requests (after a checkpoint, by keys);
// - tablePull.ts: one table's pull loop and the rule each pulled row is written by (`decide`);
// - types.ts: the options and the handle of startReplication;
// - workerPull.ts, workerMessages.ts: the page's side of the pull run in a worker (../pullWorker.ts,
//   docs/adr/0051-pull-in-a-worker.md), where the browser has workers and the vault's key is given.
import type { RxCollection } from 'rxdb';
import { Subject } from 'rxjs';
import type { EntityShape } from '../../../schemas/define';
import type { DocData } from '../data';
import { collectionOf, OFFLINE_ENTITIES } from '../store';
import { ALL_TABLES, changeStream, defaultEventSource, type StreamUrl } from './replication/changeStream';
import { tokenSubject } from './replication/checkpoints';
import { TablePull } from './replication/tablePull';
import type { Pulls, Replication, ReplicationOptions } from './replication/types';
import { WorkerPull, pullRunsInWorker } from './replication/workerPull';

export { changeStream, type EventSourceFactory, type EventSourceLike, type StreamUrl } from './replication/changeStream';
export { forgetPullCheckpoints, tokenSubject, type Checkpoint } from './replication/checkpoints';
export { decide } from './replication/tablePull';
export { pullRunsInWorker } from './replication/workerPull';
export type { Replication, ReplicationOptions } from './replication/types';

/** The tables this app mirrors: every offline collection the server has (not `files`). */
export const REPLICATED_ENTITIES: readonly EntityShape[] = OFFLINE_ENTITIES.filter((e) => e.server);

function apiBase(http: ReplicationOptions['http']): string {
  return (http.defaults.baseURL ?? '/api').replace(/\/+$/, '');
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
  // The start's pulls run while the stream connects: a change committed after their reads and
  // before the stream listens is told to nobody. The stream's first open pulls once more (a
  // reopen after a break already asks for every table, changeStream.ts).
  let heard = false;
  const onStreamOpen = () => {
    options.onStreamOpen?.();
    if (heard) return;
    heard = true;
    pulls.requestAll();
  };
  const changes$ = open ? changeStream(streamUrl, open, onStreamOpen) : null;
  const errors$ = new Subject<unknown>();
  const pulled$ = new Subject<string>();
  // Several tabs share one store: only the leader pulls (the others see its writes).
  const leadership =
    (options.waitForLeadership ?? true) && options.db.multiInstance ? options.db.waitForLeadership() : Promise.resolve(true);
  const entities = selectedEntities(options.tables);
  const inPage = () => pagePulls(options, entities, errors$, pulled$, leadership);
  const pulls: Pulls =
    options.dataKey && pullRunsInWorker()
      ? new WorkerPull(
          options,
          entities.map((e) => e.table),
          options.dataKey,
          leadership,
          { errors$, pulled$ },
          inPage,
        )
      : inPage();
  const streamSub = changes$?.subscribe(({ table, mirror }) => {
    options.onServerChange?.(table);
    // A change the device does not hold (its organisation's mirror, schemas/scope.ts
    // mirrorScope) refreshes the screens only: pulling for it would bring nothing.
    if (!mirror) return;
    if (table === ALL_TABLES) pulls.requestAll();
    else if (entities.some((e) => e.table === table)) pulls.request(table);
  });
  return {
    awaitInSync: () => pulls.awaitInSync(),
    reSync: () => pulls.requestAll(),
    pull: (table) => pulls.request(table),
    error$: errors$.asObservable(),
    pulled$: pulled$.asObservable(),
    async stop() {
      streamSub?.unsubscribe(); // the EventSource closes with its last subscriber
      await pulls.stop();
    },
  };
}

/** The pull on this page's main thread: one TablePull a table, each asked at once. */
function pagePulls(
  options: ReplicationOptions,
  entities: readonly EntityShape[],
  errors$: Subject<unknown>,
  pulled$: Subject<string>,
  leadership: Promise<unknown>,
): Pulls {
  const identity = `${apiBase(options.http)}|${tokenSubject(options.token)}`;
  const pulls = entities.map(
    (entity) =>
      new TablePull(options, entity, collectionOf(options.db, entity) as RxCollection<DocData>, identity, errors$, pulled$, leadership),
  );
  void Promise.all(pulls.map((p) => p.request()));
  return {
    request: (table) => void pulls[entities.findIndex((e) => e.table === table)]?.request(),
    requestAll: () => pulls.forEach((p) => void p.request()),
    async awaitInSync() {
      await Promise.all(pulls.map((p) => p.request()));
    },
    async stop() {
      await Promise.all(pulls.map((p) => p.stop()));
    },
  };
}
