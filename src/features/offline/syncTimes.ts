// When this device last put records on the server and last pulled from it (ADR-0023: a
// field worker sees both on the offline home). Kept in localStorage, per device, and told to
// every open screen of this tab through a window event.
import { useEffect, useState } from 'react';

const KEYS = { upload: 'icrs.lastUpload', pull: 'icrs.lastPull' } as const;
const EVENT = 'icrs-sync-times';
export type SyncKind = keyof typeof KEYS;

export interface SyncTimes {
  upload: string | null;
  pull: string | null;
}

function read(): SyncTimes {
  const get = (key: string) => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null; // storage refused (private mode): the times are a convenience only
    }
  };
  return { upload: get(KEYS.upload), pull: get(KEYS.pull) };
}

/** Notes that an upload put records on the server, or that a pull finished, now. */
export function noteSuccess(kind: SyncKind, at = new Date()): void {
  try {
    localStorage.setItem(KEYS[kind], at.toISOString());
  } catch {
    return;
  }
  window.dispatchEvent(new Event(EVENT));
}

export function useSyncTimes(): SyncTimes {
  const [times, setTimes] = useState(read);
  useEffect(() => {
    const update = () => setTimes(read());
    window.addEventListener(EVENT, update);
    window.addEventListener('storage', update); // another tab (the one that pulls) wrote them
    return () => {
      window.removeEventListener(EVENT, update);
      window.removeEventListener('storage', update);
    };
  }, []);
  return times;
}
