// The batched upload of one kind (ADR-0013): records read together, packed into batches within
// the server's limits, sent a few at a time and settled each by its own answer.
import type { EntityShape } from '../../../../schemas/define';
import { PUSH_LIMITS } from '../../../../schemas';
import { pushRecords, type PushAnswer, type PushRecord } from '../../http';
import { failureOf, imageParts, QUIET, recordAnswerError, type Row } from './http';
import { errorTitle, localFailure } from './localFailures';
import { runPool } from './pool';
import {
  batchable,
  imageBytes,
  imageCount,
  prepareRecord,
  prepareRecords,
  pushEntry,
  sendRecord,
  type Outcome,
  type Ready,
  type RecordContext,
} from './record';
import { finishUploadedMany, markFailed } from './store';

/** Batches of one kind in flight at once: one is stored while the next travels. */
export const BATCHES_IN_FLIGHT = 2;
/** Bytes of JSON a batch is filled to: below the server's limit, with room for the envelope. */
export const DEFAULT_BATCH_BYTES = Math.floor(PUSH_LIMITS.bytes * 0.9);
/** Bytes of images a batch is filled to (multipart): below the server's limit. */
export const BATCH_IMAGE_BYTES = Math.floor(PUSH_LIMITS.imageBytes * 0.9);

/** One kind's upload: where outcomes go and when to stop. */
export interface KindRun {
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
 * Batched upload of one kind (ADR-0013): the records without images or with small ones go in
 * batches of up to PUSH_LIMITS (POST /sync/push/{table}, multipart when images go along, one
 * answer per record, settled by the same rules as a record sent alone), profile images too;
 * `onAllSent` once every request of the kind has left (the next kind may then start);
 * records with large images (and profile images removed offline) go alone, a few at a time, as
 * before, beside the batches.
 */
export async function uploadKindInBatches(kind: KindRun, keys: readonly string[], onAllSent: () => void = () => undefined): Promise<void> {
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
    answers = await pushRecords(
      ctx.http,
      entity,
      batch.map((e) => e.request),
      batch.map(({ ready }) => imageParts(entity, ready.doc, ready.images)),
      QUIET,
    );
  } catch (error) {
    const failure = failureOf(error);
    if (failure.status === 413 && batch.length > 1) {
      const half = Math.ceil(batch.length / 2);
      await sendBatch(kind, batch.slice(0, half));
      if (!kind.stopped()) await sendBatch(kind, batch.slice(half));
      return;
    }
    ctx.notify(errorTitle(entity), failure.message);
    const outcome = (images: number): Outcome => ({
      status: 'failed',
      message: failure.message,
      images,
      transient: failure.transient,
      httpStatus: failure.status,
    });
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
    else kind.record(ready.key, await sendSafely(kind, ready, () => Promise.reject(recordAnswerError(answer.status, answer.body))));
  }
  try {
    await finishUploadedMany(
      ctx.db,
      entity,
      stored.map(({ ready, row }) => ({
        doc: ready.doc,
        images: ready.images,
        updatedAt: typeof row.updatedAt === 'string' ? row.updatedAt : undefined,
      })),
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
async function prepareChunk(
  kind: KindRun,
  keys: readonly string[],
): Promise<(Ready | Extract<Outcome, { status: 'skipped' }> | undefined)[]> {
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
