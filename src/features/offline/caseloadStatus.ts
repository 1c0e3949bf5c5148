// What the server said of this user's caseload at the last sync (GET /api/caseload; docs/product.md
// §6.5.1): whether the device mirrors a caseload, how many of the organisation's clients are not
// on it (`outside`, the offline client list's count) and how many the bound left out
// (`overflow`). Kept in the user's own store (an RxDB local document), not in localStorage:
// counts only, no client data, but per user (docs/adr/0017-caseload.md "The caseload").
import { useEffect, useState } from 'react';
import { profile } from '../../../schemas/index';
import { api } from '../../lib/http';
import { type HttpClient, type IcrsDatabase, useDb } from '../../lib/data';
import { can, getUser } from '../../lib/session';
import type { CaseloadFigures } from '../../../schemas/caseload';

export type { CaseloadFigures };

export interface CaseloadStatus {
  /** True when this user's devices mirror a caseload (a field worker), else the organisation's. */
  caseload: boolean;
  figures: CaseloadFigures;
  /** When the server counted them (ISO time). */
  at: string;
}

const LOCAL_ID = 'caseload-status';

/** The table whose pull makes the figures worth asking again. */
export const CASELOAD_TABLE = profile.table;

/** Asks the server for the user's caseload and keeps the answer on the device. Null for a user
 * who reads no clients (the route would refuse them) or when the server could not answer: the
 * figures of the last sync stay. */
export async function refreshCaseloadStatus(db: IcrsDatabase, http: HttpClient = api): Promise<CaseloadStatus | null> {
  if (!can(getUser()?.role, 'profiles.read')) return null;
  try {
    const { data } = await http.get<Omit<CaseloadStatus, 'at'>>('/caseload', { silent: true });
    const status: CaseloadStatus = { caseload: data.caseload, figures: data.figures, at: new Date().toISOString() };
    await db.upsertLocal<CaseloadStatus>(LOCAL_ID, status);
    return status;
  } catch (error) {
    console.warn('Caseload figures not refreshed:', error);
    return null;
  }
}

/** The figures kept on the device, as they change (null until the first sync brought them). */
export function useCaseloadStatus(): CaseloadStatus | null {
  const db = useDb();
  const [status, setStatus] = useState<CaseloadStatus | null>(null);
  useEffect(() => {
    if (!db) return undefined;
    const subscription = db
      .getLocal$<CaseloadStatus>(LOCAL_ID)
      .subscribe((doc) => setStatus(doc ? (doc.toJSON().data as CaseloadStatus) : null));
    return () => subscription.unsubscribe();
  }, [db]);
  return status;
}

/** Calls `refresh` at most once per `gapMs`, the last call of a burst included (a first sign-in
 * pulls the client table in many rounds: the figures are asked a few times, not at each). */
export function throttled(refresh: () => void, gapMs: number): { call: () => void; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = 0;
  const run = () => {
    timer = undefined;
    last = Date.now();
    refresh();
  };
  return {
    call() {
      if (timer !== undefined) return; // the call waiting runs after this one's changes
      const wait = last + gapMs - Date.now();
      if (wait <= 0) run();
      else timer = setTimeout(run, wait);
    },
    cancel: () => clearTimeout(timer),
  };
}
