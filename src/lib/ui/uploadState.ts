// Whether an upload runs, and the cross-tab upload lock, without the engine: set by the offline
// feature's upload run (uploadRun.ts), read by the update prompt (features/pwa, loaded with the
// app's shell, before any store), which waits for uploads.
import { useSyncExternalStore } from 'react';

/** The Web Lock an upload holds in whichever tab runs it. */
export const UPLOAD_LOCK = 'icrs-upload';

let running = false;
const listeners = new Set<() => void>();

/** Told by the upload run (uploadRun.ts) when it starts and ends. */
export function setUploading(value: boolean): void {
  if (running === value) return;
  running = value;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while this tab uploads. */
export function useUploading(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => running,
    () => running,
  );
}

/** Runs `work` once no upload runs in any tab of this app, holding the upload lock meanwhile,
 * so that none starts either: an app update waits for the upload rather than cut it. */
export async function afterUploads<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return work();
  return locks.request(UPLOAD_LOCK, () => work());
}
