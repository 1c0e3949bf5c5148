// uploadAll (product.md §4, ADR-0018): kinds in spec order, every parent kind (every kind a record
// refers to) finished before its children's start; in the batched mode a kind leaves as soon as
// the one before it has sent everything and the kinds it refers to are finished, so waits overlap.
// Within a kind, records that do not depend on each other go a few at a time. The plan is read
// from the store at the start; each record is read again just before it is sent, so nothing but
// the store decides what is left to do.
//
// The parts, which never import this file: plan.ts (what is pending, in which order),
// batches.ts (one kind's batched upload), progress.ts (the report), pool.ts (a few at a time),
// localFailures.ts (a local failure fails its record, not the run).
import type { IcrsDatabase } from '../../store';
import { BATCH_IMAGE_BYTES, DEFAULT_BATCH_BYTES, uploadKindInBatches, type KindRun } from './batches';
import { boundedHttp, UPLOAD_REQUEST_BOUND_MS } from './http';
import { uploadSafely } from './localFailures';
import { dependsOn, planOf } from './plan';
import { runPool } from './pool';
import { Progress } from './progress';
import type { Outcome, RecordContext } from './record';
import type { StopReason, UploadDeps, UploadOptions, UploadReport } from './types';
import { browserOnline } from '../../session';

export { BATCHES_IN_FLIGHT, BATCH_IMAGE_BYTES, DEFAULT_BATCH_BYTES } from './batches';
export { runPool } from './pool';
export { emptyKind } from './progress';

/** product.md §5 and §8, spelling kept. */
export const NO_CONNECTION = { title: 'connetivity Error', text: 'Internet Connectioon is not available' } as const;
export const DEFAULT_CONCURRENCY = 4;
/** Consecutive failures without an answer (or with a gateway's) after which the run stops
 * instead of failing every remaining record against a server that is away. */
const CONNECTION_LOST_AFTER = 3;

/** Uploads every pending record (or `options.only`) and answers the report. */
export async function uploadAll(deps: UploadDeps, options: UploadOptions = {}): Promise<UploadReport> {
  const notify = deps.notify ?? (() => undefined);
  if (!(deps.isConnected ?? browserOnline)()) {
    notify(NO_CONNECTION.title, NO_CONNECTION.text);
    const progress = new Progress(await planOf(deps.db, options.only), options.onProgress);
    return progress.finish('noConnection');
  }
  // Every request has a bound: one that hangs fails its records instead of holding the run (and
  // its "Uploading…") until the user presses Stop.
  const http = boundedHttp(deps.http, options.requestBoundMs ?? UPLOAD_REQUEST_BOUND_MS);
  return exclusive(deps.db, () => run({ db: deps.db, http, notify }, options));
}

interface RunState {
  stop?: StopReason;
  /** Failures in a row that had no answer from the server. */
  streak: number;
}

async function run(ctx: RecordContext, options: UploadOptions): Promise<UploadReport> {
  const progress = new Progress(await planOf(ctx.db, options.only), options.onProgress);
  const limit = options.sequential ? 1 : Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
  const batched = !options.sequential && options.batch !== false;
  const state: RunState = { streak: 0 };
  const stopped = () => {
    if (!state.stop && options.signal?.aborted) state.stop = 'aborted';
    return state.stop !== undefined;
  };
  const finished: Promise<void>[] = [];
  let sent: Promise<void> = Promise.resolve();
  for (const [index, step] of progress.plan.entries()) {
    const kind: KindRun = {
      ctx,
      entity: step.entity,
      limit,
      batchBytes: options.batchBytes ?? DEFAULT_BATCH_BYTES,
      batchImageBytes: options.batchImageBytes ?? BATCH_IMAGE_BYTES,
      stopped,
      record: (key, outcome) => {
        noteConnection(state, outcome);
        progress.record(index, key, outcome);
      },
      report: (key, outcome) => progress.record(index, key, outcome),
      batchFailed: (failure) => noteConnection(state, failure),
    };
    if (!batched) {
      await runPool(step.keys, limit, stopped, async (key) => kind.record(key, await uploadSafely(ctx, step.entity, key)));
      if (stopped()) break;
      continue;
    }
    // Batched: a kind leaves once the kind before it has sent all its requests (kinds still
    // leave in spec order) and every kind it refers to has finished (dependsOn): no record
    // reaches the server before a record it names. The kind's wait for its answers then
    // overlaps the next kind's, where that next kind does not depend on it.
    await Promise.all([sent, ...dependsOn(progress.plan, index).map((i) => finished[i])]);
    if (stopped()) break;
    const allSent = deferred();
    finished[index] = uploadKindInBatches(kind, step.keys, allSent.resolve).finally(allSent.resolve);
    finished[index]?.catch(() => undefined); // awaited below; handled meanwhile
    sent = allSent.promise;
  }
  await Promise.all(finished);
  return progress.finish(state.stop);
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function noteConnection(state: RunState, outcome: Outcome): void {
  if (outcome.status === 'skipped') return;
  state.streak = outcome.status === 'failed' && outcome.transient ? state.streak + 1 : 0;
  if (state.streak >= CONNECTION_LOST_AFTER) state.stop ??= 'connectionLost';
  // The session ended (token expired or revoked): every further request would be refused too.
  if (outcome.status === 'failed' && outcome.httpStatus === 401) state.stop ??= 'signedOut';
}

// One run at a time per store in this tab: two runs would send the same records twice (harmless,
// but wasteful and confusing in the report). Across tabs the offline screens hold the Web Lock
// 'icrs-upload' around uploadAll; locks are not re-entrant, so the engine must not take it too.
const runs = new WeakMap<IcrsDatabase, Promise<unknown>>();

function exclusive<T>(db: IcrsDatabase, task: () => Promise<T>): Promise<T> {
  const previous = runs.get(db) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(task);
  runs.set(db, next);
  return next;
}
