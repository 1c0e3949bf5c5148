// Device storage for the offline home (ADR-0019): how much the origin uses and may still use
// (navigator.storage.estimate), and whether the browser keeps it under pressure
// (navigator.storage.persist, asked once when the offline home first opens).
import { useCallback, useEffect, useState } from 'react';

export type PersistState = 'granted' | 'denied' | 'unsupported' | 'unknown';

export interface StorageInfo {
  /** Bytes used by this origin, or null when the browser does not tell. */
  usage: number | null;
  quota: number | null;
  persist: PersistState;
}

const ASKED_KEY = 'icrs.persistAsked';

let persistRequest: Promise<PersistState> | null = null;

async function askPersistence(): Promise<PersistState> {
  const storage = typeof navigator !== 'undefined' ? navigator.storage : undefined;
  if (!storage?.persist || !storage.persisted) return 'unsupported';
  try {
    if (await storage.persisted()) return 'granted';
    // Some browsers prompt: ask once per device; later visits only read the answer.
    let asked = false;
    try {
      asked = localStorage.getItem(ASKED_KEY) === '1';
      localStorage.setItem(ASKED_KEY, '1');
    } catch {
      // No localStorage: ask once per page load instead.
    }
    if (asked) return 'denied';
    return (await storage.persist()) ? 'granted' : 'denied';
  } catch (error) {
    console.warn('Storage persistence unavailable:', error);
    return 'unknown';
  }
}

/** Requests persistent storage the first time it is called in a page load; then the answer. */
export function requestPersistence(): Promise<PersistState> {
  persistRequest ??= askPersistence();
  return persistRequest;
}

async function estimate(): Promise<Pick<StorageInfo, 'usage' | 'quota'>> {
  try {
    const result = await navigator.storage?.estimate?.();
    return { usage: result?.usage ?? null, quota: result?.quota ?? null };
  } catch {
    return { usage: null, quota: null };
  }
}

/**
 * Storage figures, read again whenever `version` changes (the pending count, after an upload,
 * a reset or an import). Asks for persistence on first use.
 */
export function useStorageInfo(version: unknown): StorageInfo | null {
  const [info, setInfo] = useState<StorageInfo | null>(null);
  const refresh = useCallback(async () => {
    const [figures, persist] = await Promise.all([estimate(), requestPersistence()]);
    return { ...figures, persist };
  }, []);
  useEffect(() => {
    let cancelled = false;
    void refresh().then((next) => {
      if (!cancelled) setInfo(next);
    });
    return () => {
      cancelled = true;
    };
  }, [refresh, version]);
  return info;
}

/** Bytes in the user's language with the nearest unit (kB, MB, GB). */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0,
  }).format(value);
}
