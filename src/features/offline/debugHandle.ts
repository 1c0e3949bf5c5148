// Support tool: `window.__icrs`, a handle on this device's store for support staff, installed
// ONLY when `localStorage.icrsDebug === '1'` (set it from the browser console, then reload).
// With it a support person can count, list, export and import pending records, read any local
// collection, and save records through the same data layer the screens use (so a record made
// this way behaves exactly like one made on a form). The browser tests use it to collect
// records before the forms exist, and the upload benchmark (bench/upload-browser.bench.ts) to run
// the engine in a chosen mode. It adds no power the page's own code does not already have,
// and it is absent unless that key is set on the device.
import { entityByName } from '../../../schemas/index';
import { api } from '../../lib/http';
import type { DataLayer, IcrsDatabase } from '../../lib/data';
import { countPending, exportPending, importPending, listPending, uploadAll, type UploadOptions, type UploadReport } from '../../lib/sync';
import { startUpload } from './uploadRun';

export const DEBUG_FLAG = 'icrsDebug';

export interface IcrsDebugHandle {
  db: IcrsDatabase;
  data: DataLayer | null;
  entities: typeof entityByName;
  countPending: () => Promise<number>;
  listPending: () => ReturnType<typeof listPending>;
  exportPending: () => Promise<string>;
  importPending: (json: string) => ReturnType<typeof importPending>;
  upload: () => ReturnType<typeof startUpload>;
  /** One engine run in a chosen mode (sequential, one request per record, batched), without the
   * screens' lock and toasts: what the upload benchmark compares. */
  uploadWith: (options: UploadModeOptions) => Promise<UploadReport>;
}

export type UploadModeOptions = Pick<UploadOptions, 'sequential' | 'batch' | 'concurrency' | 'onProgress'>;

declare global {
  interface Window {
    __icrs?: IcrsDebugHandle;
  }
}

export function debugEnabled(): boolean {
  try {
    return localStorage.getItem(DEBUG_FLAG) === '1';
  } catch {
    return false;
  }
}

/** Installs the handle when the flag is set; returns its removal. */
export function installDebugHandle(db: IcrsDatabase, data: DataLayer | null): () => void {
  if (!debugEnabled()) return () => undefined;
  const handle: IcrsDebugHandle = {
    db,
    data,
    entities: entityByName,
    countPending: () => countPending(db),
    listPending: () => listPending(db),
    exportPending: () => exportPending(db),
    importPending: (json) => importPending(db, json),
    upload: () => startUpload(db),
    uploadWith: (options) => uploadAll({ db, http: api, isConnected: () => true }, options),
  };
  window.__icrs = handle;
  console.info('ICRS support handle installed: window.__icrs (localStorage.icrsDebug = "1").');
  return () => {
    if (window.__icrs === handle) delete window.__icrs;
  };
}
