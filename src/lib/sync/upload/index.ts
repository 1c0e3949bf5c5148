// Upload engine of the offline mode (docs/offline-contract.md "Upload engine", product.md §4, §8,
// ADR-0018). No React here: the offline screens inject the store, the HTTP client and the toasts.
//
// Decisions (see the modules for the reasons):
// - Success deletes the local record and its images (product.md §4); online lists get the server's row
//   back through the pull replication, so no local leftover can show a record twice.
// - 'duplicate entry' is compared with the local copy: nothing newer → dropped; a newer local
//   edit → PUT onto the untouched server row, then dropped; profiles always PUT first (product.md §4);
//   a server row changed by someone else → conflict, kept. Nothing is dropped silently.
// - A pending update is a PUT with `updatedAt` = syncBase; 'conflict' is kept with the server
//   side in `syncError` (state 'conflict' on the pending screen) unless the server already holds
//   every local value (this update's own answer was lost).
// - A child waits while its parent is pending on this device ('parent not uploaded').
export { uploadAll, emptyKind, NO_CONNECTION, DEFAULT_CONCURRENCY } from './upload';
export { PARENT_NOT_UPLOADED, DELETED_ON_SERVER } from './record';
export { listPending, pending$, countPending, retry, resolveConflict, discardPending, resetDatabase } from './pending';
export { exportPending, importPending, EXPORT_FORMAT, EXPORT_VERSION, type PendingExport } from './transfer';
export { CONFLICT } from './sync-error';
export type {
  UploadDeps,
  UploadHttp,
  UploadOptions,
  UploadReport,
  KindReport,
  StopReason,
  RecordRef,
  PendingRecord,
  PendingState,
  ConflictInfo,
  DeletedInfo,
  ImportResult,
} from './types';
