// The caseload's calls of the client screens (docs/api.md "Caseload", docs/product.md §6.5.1):
// who a client may be assigned to, the assignment and what it adds to the worker's device, and
// the pins ("keep on this device"). Online calls: the screens say so offline.
import { useEffect, useState } from 'react';
import { isAxiosError } from 'axios';
import { api } from '../../lib/http';
import { type IcrsDatabase, useDb } from '../../lib/data';
import { can, type SessionUser } from '../../lib/session';

/** The most clients one assignment moves (server/lib/records/caseload.ts MAX_ASSIGN). */
export const MAX_ASSIGN = 500;

/** The longest a caseload call waits for the server (a 500-client preview counts their records). */
export const CASELOAD_CALL_BOUND_MS = 30_000;
const bounded = { silent: true, timeout: CASELOAD_CALL_BOUND_MS } as const;

export interface Worker {
  userId: string;
  name: string;
  location: number;
  /** Their devices mirror a caseload (a field worker): what an assignment adds to it matters. */
  caseload: boolean;
}

export interface Added {
  clients: number;
  rows: number;
  megabytes: number;
}

export interface Preview {
  added: Added;
  after: { clients: number; overflow: number; bound: number; megabytes: number };
}

export async function fetchWorkers(): Promise<Worker[]> {
  const { data } = await api.get<{ workers: Worker[] }>('/caseload/workers', bounded);
  return data.workers;
}

export async function previewAssignment(userId: string, clients: readonly string[]): Promise<Preview> {
  const { data } = await api.post<Preview>('/caseload/preview', { userId, clients }, bounded);
  return data;
}

export async function assignClients(clients: readonly string[], to: string): Promise<{ assigned: number; unchanged: number }> {
  const { data } = await api.post<{ assigned: number; unchanged: number }>('/profile/assign', { clients, to }, bounded);
  return data;
}

export async function fetchPins(): Promise<string[]> {
  const { data } = await api.get<{ pins: string[] }>('/caseload/pins', bounded);
  return data.pins;
}

export async function setPinned(profId: string, pinned: boolean): Promise<void> {
  const path = `/caseload/pins/${encodeURIComponent(profId)}`;
  if (pinned) await api.put(path, undefined, bounded);
  else await api.delete(path, bounded);
}

/** The codes the caseload's routes answer that a screen explains in the user's language. */
const KNOWN_CODES = ['caseload.clientsNotFound', 'caseload.mixedOrganisations', 'caseload.badAssignee', 'caseload.tooManyPins'];

export interface CaseloadError {
  /** The message's id (`clients.caseload.error.*`), chosen by the answer's code, never its text. */
  id: string;
  values: Record<string, string | number>;
}

/** The most clients one user keeps on their devices by hand (server MAX_PINS). */
export const MAX_PINS = 200;

/** What to say of a failed caseload call: by the answer's `code`, a network failure, or any
 * other failure (its status). */
export function caseloadError(error: unknown): CaseloadError {
  if (!isAxiosError<{ code?: unknown }>(error)) return { id: 'clients.caseload.error.other', values: { status: '' } };
  if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT') return { id: 'clients.caseload.error.timeout', values: {} };
  if (!error.response) return { id: 'clients.caseload.error.network', values: {} };
  const code = typeof error.response.data?.code === 'string' ? error.response.data.code : '';
  if (!KNOWN_CODES.includes(code)) return { id: 'clients.caseload.error.other', values: { status: error.response.status } };
  return { id: `clients.caseload.error.${code.slice('caseload.'.length)}`, values: { max: MAX_PINS } };
}

/** True when `user` may assign clients: the role matrix (roles 1, 4, 5, 7); the server's scope
 * keeps each to its organisation. */
export const mayAssign = (user: SessionUser | null): boolean => can(user?.role, 'profiles.assign');

const WORKERS_ID = 'caseload-workers';

/** Who clients may be assigned to: asked online (and kept in the user's store), read from the
 * store offline, so that the "Assigned to …" filter and the list's worker names work offline
 * too. Names of staff, no client data. Empty until known. */
export function useWorkers(online: boolean, enabled = true): Worker[] {
  const db = useDb();
  const [workers, setWorkers] = useState<Worker[]>([]);
  useEffect(() => {
    if (!enabled) return undefined;
    let current = true;
    const kept = db ? readKept(db) : Promise.resolve(null);
    void kept.then((list) => current && list && setWorkers(list));
    if (online)
      fetchWorkers().then(
        (list) => {
          if (!current) return;
          setWorkers(list);
          if (db) void db.upsertLocal(WORKERS_ID, { workers: list }).catch(() => undefined);
        },
        (error: unknown) => console.warn('Workers not read:', error),
      );
    return () => {
      current = false;
    };
  }, [db, online, enabled]);
  return workers;
}

async function readKept(db: IcrsDatabase): Promise<Worker[] | null> {
  try {
    const doc = await db.getLocal<{ workers: Worker[] }>(WORKERS_ID);
    return (doc?.get('workers') as Worker[] | undefined) ?? null;
  } catch {
    return null;
  }
}
