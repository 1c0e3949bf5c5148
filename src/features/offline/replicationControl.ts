// Pull replication runs while the app is online and a user is signed in (ADR-0015): started
// when the signed-in store opens in online mode or the mode switch turns online, stopped when
// it turns offline, and stopped before a logout clears the token it uses.
import { useEffect } from 'react';
import { ALL_TABLES } from '../../../schemas/changeStream';
import { list as listEntity } from '../../../schemas/index';
import { api } from '../../lib/http';
import { type IcrsDatabase, refreshLists } from '../../lib/data';
import { emitServerChange, emitServerListening, onServerChange, whenIdle } from '../../lib/util';
import { pullRunsInWorker, REPLICATED_ENTITIES, startReplication, type Replication } from '../../lib/sync';
import { readableTables, type Actor } from '../../../schemas/scope';
import { getToken, getUser, type Mode } from '../../lib/session';
import { dataKey } from '../../lib/vault';
import { noteSuccess } from './syncTimes';
import { CASELOAD_TABLE, refreshCaseloadStatus, throttled } from './caseloadStatus';
import { syncFailureToasts } from './syncErrors';

/**
 * The tables this user may read: their role may, and their organisation scope holds records of
 * it (a user without an organisation reads no client data, ADR-0007). The feed answers 403 for
 * the others, and the API client sends any 403 to /forbidden, so a user is never asked to pull
 * what they may not see. The same rule as the change stream's (schemas/scope.ts).
 */
export function mirroredTables(user: Actor | null): string[] {
  if (!user) return [];
  const readable = readableTables(user);
  return REPLICATED_ENTITIES.filter((entity) => readable.has(entity.table)).map((entity) => entity.table);
}

const LISTS_TABLE = listEntity.table;

let current: Replication | null = null;
/** Cancels a start still waiting for the page to be idle. */
let cancelStart: (() => void) | null = null;

async function stop(replication: Replication): Promise<void> {
  try {
    await replication.stop();
  } catch (error) {
    console.warn('Replication did not stop cleanly:', error);
  }
}

/** Stops the running replication, if any (logout calls this before clearing the session). */
export function stopReplication(): Promise<void> {
  cancelStart?.();
  cancelStart = null;
  const running = current;
  current = null;
  return running ? stop(running) : Promise.resolve();
}

/** Pulls every table again now (after 'Reset Database' forgot the checkpoints). */
export function resyncReplication(): void {
  current?.reSync();
}

/** Keeps replication running exactly while `mode` is online (for the signed-in store's life). */
export function useReplication(db: IcrsDatabase | null, mode: Mode): void {
  useEffect(() => {
    const token = getToken();
    const tables = mirroredTables(getUser());
    if (!db || mode !== 'online' || !token || tables.length === 0) return;
    let stopRunning: (() => void) | undefined;
    const start = () => {
      cancelStart = null;
      if (getToken() === token) stopRunning = run(db, token, tables);
    };
    // The first screen first: the pull on the page starts once the page is idle (ADR-0035), not
    // beside the screen's first drawing on a phone's slow CPU. A pull in a worker starts at once:
    // its worker opens its store on a thread of its own (ADR-0051).
    const cancel = pullRunsInWorker() ? (start(), () => undefined) : whenIdle(start, PULL_START_MAX_WAIT_MS);
    cancelStart = cancel;
    return () => {
      cancel();
      if (cancelStart === cancel) cancelStart = null;
      stopRunning?.();
    };
  }, [db, mode]);
}

/** The longest the pull waits for the page to be idle before it starts anyway. */
const PULL_START_MAX_WAIT_MS = 3_000;

/** The shortest gap between two requests of the caseload's figures during pulls. */
const CASELOAD_REFRESH_GAP_MS = 5_000;

/** Starts the replication and what listens to it; answers its stop. */
function run(db: IcrsDatabase, token: string, tables: string[]): (() => void) | undefined {
  let replication: Replication;
  try {
    replication = startReplication({
      db,
      http: api,
      token,
      tables,
      dataKey, // the rows sealed and stored by a worker where the browser has them (ADR-0051)
      onServerChange: emitServerChange,
      onStreamOpen: emitServerListening,
    });
  } catch (error) {
    console.warn('Replication could not start:', error);
    return undefined;
  }
  current = replication;
  // Pull failures are retried by the replication itself (src/lib/sync/replication/tablePull.ts: the
  // table's round again after 5 s, or at once when the change stream or reSync asks, until it
  // is stopped); log them for support, and toast a server's refusal of jobs or clients once
  // (product.md §8 'Job Sync Error', 'Profile Sync Error').
  const toasts = syncFailureToasts();
  const errors = replication.error$.subscribe((error: unknown) => {
    console.warn('Replication pull failed:', error);
    toasts.failed(error);
  });
  // The caseload's figures (what is not on the device, what the bound left out) are asked
  // again after each pull of the clients, and kept for offline (docs/product.md §6.5.1).
  const caseload = throttled(() => void refreshCaseloadStatus(db), CASELOAD_REFRESH_GAP_MS);
  const pulled = replication.pulled$.subscribe((table) => {
    noteSuccess('pull');
    toasts.pulled(table);
    if (table === CASELOAD_TABLE) caseload.call();
  });
  // An administrator changed a lookup list: refresh the cached copy, which open forms follow.
  const stopLists = onServerChange((table) => {
    if (table === LISTS_TABLE || table === ALL_TABLES)
      refreshLists(api).catch((error: unknown) => console.warn('Lookup lists not refreshed:', error));
  });
  // Back on the network: pull at once rather than at the next retry.
  const onOnline = () => replication.reSync();
  window.addEventListener('online', onOnline);
  return () => {
    window.removeEventListener('online', onOnline);
    errors.unsubscribe();
    pulled.unsubscribe();
    caseload.cancel();
    stopLists();
    if (current === replication) current = null;
    void stop(replication);
  };
}
