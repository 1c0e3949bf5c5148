// Public types of the upload engine (docs/offline-contract.md "Upload engine").
import type { AxiosInstance } from 'axios';
import type { IcrsDatabase } from '../../store';

/** The HTTP calls the engine makes: the app's axios instance (baseURL …/api, bearer token) or a test one. */
export type UploadHttp = Pick<AxiosInstance, 'get' | 'post' | 'put'>;

/** What the engine needs; injected so that it runs the same in the app, in tests and in benches. */
export interface UploadDeps {
  db: IcrsDatabase;
  http: UploadHttp;
  /** An error toast (product.md §8 titles). Default: none. */
  notify?: (title: string, text: string) => void;
  /** Network connectivity. Default: `navigator.onLine` where there is one, else true. */
  isConnected?: () => boolean;
}

/** One record of one collection: its product.md §3 table and its RxDB primary key (`prof_Id|img_for` for profile images). */
export interface RecordRef {
  table: string;
  key: string;
}

export interface UploadOptions {
  /** Records of one kind in flight at once (default 4). */
  concurrency?: number;
  /** One record at a time: the spec's strictly sequential upload, kept for comparison. */
  sequential?: boolean;
  /** Records go in batches (POST /sync/push/{table}; with their images when those are small:
   * multipart); default true. `false`:
   * one request per record, `concurrency` at a time (the engine before batches, for comparison). */
  batch?: boolean;
  /** Bytes of JSON per batch (default 90% of the server's limit); a batch the server still finds
   * too large (413) is split in two. */
  batchBytes?: number;
  /** Bytes of images one batch carries at most (default 90% of PUSH_LIMITS.imageBytes). */
  batchImageBytes?: number;
  /** Stops the upload between records; records already sent finish first. */
  signal?: AbortSignal;
  /** How long one request may go without its answer (default UPLOAD_REQUEST_BOUND_MS, 3 min):
   * past it the request is abandoned and its records fail as with no answer. */
  requestBoundMs?: number;
  /** Called with a fresh copy of the report after every record (also within a batch). */
  onProgress?: (report: UploadReport) => void;
  /** Only these records (retry of one record); default: every pending record. */
  only?: readonly RecordRef[];
}

/** Why a run ended before every record was tried. */
export type StopReason = 'noConnection' | 'aborted' | 'connectionLost' | 'signedOut';

/** One line of the offline home's report (product.md §2): one kind of record, in upload order. */
export interface KindReport {
  /** product.md §3 table (`available-jobs`, …, `tbl_profiles_images`). */
  table: string;
  /** Translation key of the kind's name (`entity.job`, …). */
  title: string;
  /** product.md §8 title of this kind's upload errors. */
  errorTitle: string;
  /** Pending records of this kind when the run started. */
  total: number;
  success: number;
  failed: number;
  /** Not sent this run: parent not uploaded, conflict awaiting a choice, or no longer pending. */
  skipped: number;
  /** Images now on the server (job and service images; each profile image). */
  images: number;
  /** Images of records that failed. */
  imagesFailed: number;
  /** Why records failed or were skipped. */
  errors: { key: string; message: string }[];
}

export interface UploadReport {
  kinds: KindReport[];
  /** Records dealt with (success, failed or skipped). */
  done: number;
  /** Records now on the server (success). */
  uploaded: number;
  total: number;
  /** Share of the records now on the server, 0-100, whole numbers: a failure does not fill it. */
  percent: number;
  running: boolean;
  stopped?: StopReason;
}

/** State of a pending record on the pending-records screen. */
/** `erased`: its client was erased on the server (410 http.clientErased): never sent again, only discarded. */
export type PendingState = 'pending' | 'failed' | 'conflict' | 'deleted' | 'erased';

/** One line of the pending-records screen. */
export interface PendingRecord {
  table: string;
  key: string;
  /** A name a person recognises (title, name, registration number, …). */
  label: string;
  op: 'create' | 'update';
  state: PendingState;
  attempts: number;
  lastError?: string;
  /** For a conflict: the server's `updatedAt` and its values of the fields that differ. */
  conflict?: ConflictInfo;
  /** For an edit of a record deleted on the server meanwhile: what the server told of it. */
  deleted?: DeletedInfo;
}

/** A record deleted (or a client erased) on the server, as its 404 tells it (ADR-0023). */
export interface DeletedInfo {
  /** When, ISO 8601. */
  at: string;
  /** Who, by name, when the server says. */
  by?: string;
  /** Why, when the server says. */
  reason?: string;
}

/** The server side of a conflict, kept in the record's `syncError` for the pending screen. */
export interface ConflictInfo {
  /** `updatedAt` of the server copy: the base of "keep mine". */
  updatedAt: string;
  /** The server's values of the fields the local copy changed (absent when too long to keep). */
  server?: Record<string, unknown>;
}

export interface ImportResult {
  /** Records added as pending. */
  imported: number;
  /** Records left out because this device already has pending work under the same key. */
  skipped: number;
  /** Job and service images added. */
  images: number;
}
