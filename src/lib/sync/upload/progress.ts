// The report of a run, kind by kind, as records are settled.
import type { EntityShape } from '../../../../schemas/define';
import type { Step } from './plan';
import type { Outcome } from './record';
import type { KindReport, StopReason, UploadReport } from './types';

/** The report of a run, handed out as copies so callers can keep them (React state). */
export class Progress {
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
