// uploadAll (spec §4, issue 4 §3): kinds in spec order, every parent kind (every kind a record
// refers to) finished before its children's start; in the batched mode a kind leaves as soon as
// the one before it has sent everything and the kinds it refers to are finished, so waits overlap.
// Within a kind, records that do not depend on each other go a few at a time. The plan is read
// from the store at the start; each record is read again just before it is sent, so nothing but
// the store decides what is left to do.
import type { EntityShape } from '../../../schemas/define';
import type { IcrsDatabase } from '../db/collections';
import { PUSH_LIMITS } from '../../../schemas/index';
import { failureOf, imageParts, pushRecords, RecordAnswerError, type PushAnswer, type PushRecord, type Row } from './http';
import { batchable, imageBytes, imageCount, prepareRecord, prepareRecords, pushEntry, sendRecord, uploadRecord, type Outcome, type Ready, type RecordContext } from './record';
import { finishUploadedMany, markFailed, pendingKeys, UPLOAD_KINDS } from './store';
import type { KindReport, RecordRef, StopReason, UploadDeps, UploadOptions, UploadReport } from './types';
import { browserOnline } from '../network';

/** Spec §5 and §8, spelling kept. */
export const NO_CONNECTION = { title: 'connetivity Error', text: 'Internet Connectioon is not available' } as const;
export const DEFAULT_CONCURRENCY = 4;
/** Batches of one kind in flight at once: one is stored while the next travels. */
export const BATCHES_IN_FLIGHT = 2;
/** Bytes of JSON a batch is filled to: below the server's limit, with room for the envelope. */
export const DEFAULT_BATCH_BYTES = Math.floor(PUSH_LIMITS.bytes * 0.9);
/** Bytes of images a batch is filled to (multipart): below the server's limit. */
export const BATCH_IMAGE_BYTES = Math.floor(PUSH_LIMITS.imageBytes * 0.9);
/** Consecutive failures without an answer (or with a gateway's) after which the run stops
 * instead of failing every remaining record against a server that is away. */
const CONNECTION_LOST_AFTER = 3;

interface Step {
  entity: EntityShape;
  keys: string[];
}

/** Uploads every pending record (or `options.only`) and answers the report. */
export async function uploadAll(deps: UploadDeps, options: UploadOptions = {}): Promise<UploadReport> {
  const notify = deps.notify ?? (() => undefined);
  if (!(deps.isConnected ?? browserOnline)()) {
    notify(NO_CONNECTION.title, NO_CONNECTION.text);
    const progress = new Progress(await planOf(deps.db, options.only), options.onProgress);
    return progress.finish('noConnection');
  }
  return exclusive(deps.db, () => run({ db: deps.db, http: deps.http, notify }, options));
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

/**
 * The kinds (their places in the plan) kind `index` must see finished before it starts in the
 * batched mode: those its id fields refer to (its parent among them), derived from the entity
 * declarations; the last kind (profile images, spec §4 "uploaded last") waits for every kind.
 */
function dependsOn(plan: readonly Step[], index: number): number[] {
  const earlier = plan.slice(0, index).map((_, i) => i);
  if (index === plan.length - 1) return earlier;
  const refs = new Set(Object.values((plan[index] as Step).entity.fields).flatMap((field) => (field.kind === 'id' && field.ref ? [field.ref] : [])));
  return earlier.filter((i) => refs.has((plan[i] as Step).entity.name));
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** One kind's upload: where outcomes go and when to stop. */
interface KindRun {
  ctx: RecordContext;
  entity: EntityShape;
  limit: number;
  batchBytes: number;
  batchImageBytes: number;
  stopped: () => boolean;
  /** A record's outcome after an answer of its own: the report and the connection streak. */
  record: (key: string, outcome: Outcome) => void;
  /** A record's outcome in the report only (its batch was counted for the streak). */
  report: (key: string, outcome: Outcome) => void;
  /** A whole batch failed: counted once for the connection streak, whatever its size. */
  batchFailed: (outcome: Outcome) => void;
}

/**
 * Batched upload of one kind (issue 16): the records without images or with small ones go in
 * batches of up to PUSH_LIMITS (POST /sync/push/{table}, multipart when images go along, one
 * answer per record, settled by the same rules as a record sent alone), profile images too;
 * `onAllSent` once every request of the kind has left (the next kind may then start);
 * records with large images (and profile images removed offline) go alone, a few at a time, as
 * before, beside the batches.
 */
async function uploadKindInBatches(kind: KindRun, keys: readonly string[], onAllSent: () => void = () => undefined): Promise<void> {
  const alone: Ready[] = [];
  const ready: Ready[] = [];
  for (let start = 0; start < keys.length && !kind.stopped(); start += PREPARE_CHUNK) {
    const chunk = keys.slice(start, start + PREPARE_CHUNK);
    for (const [i, prepared] of (await prepareChunk(kind, chunk)).entries()) {
      const key = chunk[i] as string;
      if (!prepared) continue;
      if (!('doc' in prepared)) kind.record(key, prepared);
      else if (batchable(kind.entity, prepared)) ready.push(prepared);
      else alone.push(prepared);
    }
  }
  // The records of one kind do not depend on each other: the batches and the records with
  // images travel at the same time.
  const batches = batchesOf(kind, ready);
  let toSend = batches.length + alone.length;
  const leaving = () => {
    toSend -= 1;
    if (toSend === 0) onAllSent();
  };
  if (toSend === 0) onAllSent();
  await Promise.all([
    runPool(batches, BATCHES_IN_FLIGHT, kind.stopped, (batch) => {
      leaving();
      return sendBatch(kind, batch);
    }),
    runPool(alone, kind.limit, kind.stopped, async (r) => {
      leaving();
      kind.record(r.key, await sendSafely(kind, r));
    }),
  ]);
}

interface Entry {
  ready: Ready;
  request: PushRecord;
}

/** Splits ready records into batches of at most PUSH_LIMITS.records, `batchBytes` of JSON and
 * `batchImageBytes` of images. */
function batchesOf(kind: KindRun, ready: readonly Ready[]): Entry[][] {
  const batches: Entry[][] = [];
  let current: Entry[] = [];
  let bytes = 0;
  let imagesFilled = 0;
  for (const r of ready) {
    const request = pushEntry(kind.entity, r);
    const size = utf8Length(JSON.stringify(request)) + 1;
    const images = imageBytes(kind.entity, r);
    const full = current.length >= PUSH_LIMITS.records || bytes + size > kind.batchBytes || imagesFilled + images > kind.batchImageBytes;
    if (current.length && full) {
      batches.push(current);
      current = [];
      bytes = 0;
      imagesFilled = 0;
    }
    current.push({ ready: r, request });
    bytes += size;
    imagesFilled += images;
  }
  if (current.length) batches.push(current);
  return batches;
}

const encoder = new TextEncoder();
const utf8Length = (text: string) => encoder.encode(text).length;

/**
 * Sends one batch and settles each record by its own answer. The server refusing the size
 * (413) splits the batch in two; a batch without an answer (lost, 5xx, server away) keeps every
 * record with that error, and their next upload finds the ones that did land as 'duplicate
 * entry' (or their update as 'conflict' with this very version), settled as today.
 */
async function sendBatch(kind: KindRun, batch: readonly Entry[]): Promise<void> {
  const { ctx, entity } = kind;
  let answers: PushAnswer[];
  try {
    answers = await pushRecords(ctx.http, entity, batch.map((e) => e.request), batch.map(({ ready }) => imageParts(entity, ready.doc, ready.images)));
  } catch (error) {
    const failure = failureOf(error);
    if (failure.status === 413 && batch.length > 1) {
      const half = Math.ceil(batch.length / 2);
      await sendBatch(kind, batch.slice(0, half));
      if (!kind.stopped()) await sendBatch(kind, batch.slice(half));
      return;
    }
    ctx.notify(errorTitle(entity), failure.message);
    const outcome = (images: number): Outcome => ({ status: 'failed', message: failure.message, images, transient: failure.transient, httpStatus: failure.status });
    kind.batchFailed(outcome(0));
    for (const { ready } of batch) {
      await markFailed(ready.doc, failure.message);
      kind.report(ready.key, outcome(imageCount(entity, ready)));
    }
    return;
  }
  const stored: { ready: Ready; row: Row }[] = [];
  for (const [i, { ready }] of batch.entries()) {
    const answer = answers[i] as PushAnswer;
    if (answer.status < 300) stored.push({ ready, row: answer.body });
    else kind.record(ready.key, await sendSafely(kind, ready, () => Promise.reject(new RecordAnswerError(answer.status, answer.body))));
  }
  try {
    await finishUploadedMany(
      ctx.db,
      entity,
      stored.map(({ ready, row }) => ({ doc: ready.doc, images: ready.images, updatedAt: typeof row.updatedAt === 'string' ? row.updatedAt : undefined })),
    );
  } catch {
    // The store refused the bulk removal: settle them one by one (each by its revision).
    for (const { ready, row } of stored) kind.record(ready.key, await sendSafely(kind, ready, () => Promise.resolve(row)));
    return;
  }
  for (const { ready } of stored) kind.record(ready.key, { status: 'success', images: imageCount(entity, ready) });
}

/** Records read together before a batched upload: a few reads per chunk instead of three per record. */
const PREPARE_CHUNK = 500;

/** The chunk's records read together; if that read fails, one by one, so a local failure while
 * reading a record fails that record alone. */
async function prepareChunk(kind: KindRun, keys: readonly string[]): Promise<(Ready | Extract<Outcome, { status: 'skipped' }> | undefined)[]> {
  try {
    return await prepareRecords(kind.ctx, kind.entity, keys);
  } catch {
    const one: (Ready | Extract<Outcome, { status: 'skipped' }> | undefined)[] = [];
    for (const key of keys) one.push(kind.stopped() ? undefined : await prepareSafely(kind, key));
    return one;
  }
}

/** A local failure while reading a record fails that record, not the run. */
async function prepareSafely(kind: KindRun, key: string): Promise<Awaited<ReturnType<typeof prepareRecord>> | undefined> {
  try {
    return await prepareRecord(kind.ctx, kind.entity, key);
  } catch (error) {
    kind.record(key, localFailure(kind.ctx, kind.entity, error));
    return undefined;
  }
}

async function sendSafely(kind: KindRun, ready: Ready, first?: () => Promise<Row>): Promise<Outcome> {
  try {
    return await sendRecord(kind.ctx, kind.entity, ready, first);
  } catch (error) {
    return localFailure(kind.ctx, kind.entity, error);
  }
}

function errorTitle(entity: EntityShape): string {
  return entity.upload?.errorTitle ?? entity.table;
}

function localFailure(ctx: RecordContext, entity: EntityShape, error: unknown): Outcome {
  const message = error instanceof Error ? error.message : String(error);
  ctx.notify(errorTitle(entity), message);
  return { status: 'failed', message, images: 0, transient: false };
}

/** A local failure (storage full, a second tab's write) fails the record, not the run. */
async function uploadSafely(ctx: RecordContext, entity: EntityShape, key: string): Promise<Outcome> {
  try {
    return await uploadRecord(ctx, entity, key);
  } catch (error) {
    return localFailure(ctx, entity, error);
  }
}

function noteConnection(state: RunState, outcome: Outcome): void {
  if (outcome.status === 'skipped') return;
  state.streak = outcome.status === 'failed' && outcome.transient ? state.streak + 1 : 0;
  if (state.streak >= CONNECTION_LOST_AFTER) state.stop ??= 'connectionLost';
  // The session ended (token expired or revoked): every further request would be refused too.
  if (outcome.status === 'failed' && outcome.httpStatus === 401) state.stop ??= 'signedOut';
}

/** Runs `work` over `items` with at most `limit` at once; stops taking new items once `stopped()`. */
export async function runPool<T>(items: readonly T[], limit: number, stopped: () => boolean, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stopped()) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function planOf(db: IcrsDatabase, only?: readonly RecordRef[]): Promise<Step[]> {
  return Promise.all(
    UPLOAD_KINDS.map(async (entity) => {
      const keys = await pendingKeys(db, entity);
      if (!only) return { entity, keys };
      const wanted = new Set(only.filter((r) => r.table === entity.table).map((r) => r.key));
      return { entity, keys: keys.filter((k) => wanted.has(k)) };
    }),
  );
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

/** The report of a run, handed out as copies so callers can keep them (React state). */
class Progress {
  private readonly report: UploadReport;

  constructor(
    readonly plan: Step[],
    private readonly onProgress?: (report: UploadReport) => void,
  ) {
    const kinds = plan.map(({ entity, keys }) => emptyKind(entity, keys.length));
    const total = kinds.reduce((n, k) => n + k.total, 0);
    this.report = { kinds, done: 0, uploaded: 0, total, percent: total ? 0 : 100, running: true };
    this.emit();
  }

  record(index: number, key: string, outcome: Outcome): void {
    const kind = this.report.kinds[index] as KindReport;
    if (outcome.status === 'success') {
      kind.success += 1;
      kind.images += outcome.images;
      this.report.uploaded += 1;
    } else if (outcome.status === 'failed') {
      kind.failed += 1;
      kind.imagesFailed += outcome.images;
      kind.errors.push({ key, message: outcome.message });
    } else {
      kind.skipped += 1;
      if (outcome.message) kind.errors.push({ key, message: outcome.message });
    }
    this.report.done += 1;
    this.report.percent = Math.floor((this.report.uploaded * 100) / (this.report.total || 1));
    this.emit();
  }

  finish(stopped: StopReason | undefined): UploadReport {
    this.report.running = false;
    if (stopped) this.report.stopped = stopped;
    this.emit();
    return this.snapshot();
  }

  private emit(): void {
    this.onProgress?.(this.snapshot());
  }

  private snapshot(): UploadReport {
    return { ...this.report, kinds: this.report.kinds.map((k) => ({ ...k, errors: [...k.errors] })) };
  }
}

/** A kind's report before anything was sent: `total` waiting, nothing done. */
export function emptyKind(entity: EntityShape, total: number): KindReport {
  return {
    table: entity.table,
    title: entity.label,
    errorTitle: entity.upload?.errorTitle ?? entity.table,
    total,
    success: 0,
    failed: 0,
    skipped: 0,
    images: 0,
    imagesFailed: 0,
    errors: [],
  };
}
