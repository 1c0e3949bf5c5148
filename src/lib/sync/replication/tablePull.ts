// One table's pull loop, and the rule each pulled row is written by.
//
// Every pulled row is written by a compare-and-set on the stored document (docs/offline-contract.md
// "Pull replication"): the row is decided on the state read just before, and the write names that
// state as its `previous`, so RxDB refuses it if anything (the upload engine, an edit) wrote in
// between; the row is then decided again on the new state. A pending document is never written.
// A row met while its document was pending is owed to the device (owed.ts) until written: a
// reload or a dropped edit cannot make the feed skip a record for good.
import type { RxCollection } from 'rxdb';
import { filter, Subject, type Observable, type Subscription } from 'rxjs';
import type { EntityShape } from '../../../../schemas/define';
import { compareAndSet, heldIsSameOrNewer, isPending, storedDoc, type DocData, type StoredDoc, type WriteDecision } from '../../data';
import { inPieces, yieldToBrowser } from '../../util';
import { owedChanges$, owedKeys, oweServerCopy, settleOwed } from '../../store';
import { checkpointId, storeEpoch, type Checkpoint } from './checkpoints';
import { fetchBatch, fetchKeys, type PulledDoc } from './fetchers';
import type { ReplicationOptions } from './types';

/** Rows written in one piece: storing a document costs the main thread ~1 ms on a phone-class
 * CPU (RxDB, sealing, IndexedDB's copy), spread over the piece's several tasks (the sealing,
 * IndexedDB's puts, the change events), so a piece stays under the 100 ms of the fill's aim
 * and the browser answers input between two pieces. Each piece costs its own transactions and
 * events: 50 rather than 25 halves that (docs/performance.md "The caseload at 4×";
 * bench/first-signin.bench.ts, bench/caseload.bench.ts). */
const WRITE_PIECE = 50;
const DEFAULT_BATCH = 200;

/** The most owed keys asked in one request (the server takes 200). */
const OWED_BATCH = 200;

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
export class TablePull {
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
    const settled = (event: { operation: string; documentData: unknown }) =>
      event.operation === 'DELETE' || !isPending(event.documentData as DocData);
    this.subscriptions.push(
      collection.$.pipe(
        filter((event) => (this.held.has(event.documentId) || this.owed.has(event.documentId)) && settled(event)),
      ).subscribe((event) => {
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
      const settled = new Set(
        stored.filter((d) => d._deleted || !isPending(d as DocData)).map((d) => String(d[primary as keyof StoredDoc])),
      );
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
