// uploadAll (spec §4, issue 4 §3): kinds one after the other in spec order, so every parent kind is
// finished before its children's; within a kind, records that do not depend on each other go a few
// at a time. The plan is read from the store at the start; each record is read again just before
// it is sent, so nothing but the store decides what is left to do.
import type { EntityShape } from '../../../../schemas/define';
import type { IcrsDatabase } from '../../../lib/db/database';
import { uploadRecord, type Outcome, type RecordContext } from './record';
import { pendingKeys, UPLOAD_KINDS } from './store';
import type { KindReport, RecordRef, StopReason, UploadDeps, UploadOptions, UploadReport } from './types';
import { browserOnline } from '../../../lib/network';

/** Spec §5 and §8, spelling kept. */
export const NO_CONNECTION = { title: 'connetivity Error', text: 'Internet Connectioon is not available' } as const;
export const DEFAULT_CONCURRENCY = 4;
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
  const state: RunState = { streak: 0 };
  const stopped = () => {
    if (!state.stop && options.signal?.aborted) state.stop = 'aborted';
    return state.stop !== undefined;
  };
  for (const [index, step] of progress.plan.entries()) {
    await runPool(step.keys, limit, stopped, async (key) => {
      const outcome = await uploadSafely(ctx, step.entity, key);
      noteConnection(state, outcome);
      progress.record(index, key, outcome);
    });
    if (stopped()) break;
  }
  return progress.finish(state.stop);
}

/** A local failure (storage full, a second tab's write) fails the record, not the run. */
async function uploadSafely(ctx: RecordContext, entity: EntityShape, key: string): Promise<Outcome> {
  try {
    return await uploadRecord(ctx, entity, key);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.notify(entity.upload?.errorTitle ?? entity.table, message);
    return { status: 'failed', message, images: 0, transient: false };
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
