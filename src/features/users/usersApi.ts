// The user routes of the API (product.md §7 "Auth and users"). Users are no RxDB collection (product.md
// §D6: the open-core limit), so these screens are online ones and call the API directly.
import { isAxiosError } from 'axios';
import { user as userEntity, type RowOf } from '../../../schemas/index';
import { can, getToken, getUser, saveSession, type Say, type SessionUser, toSessionUser } from '../../lib/session';
import { api, messageOf } from '../../lib/http';
import { listParams } from '../../../schemas/listQuery';
import type { ListQuery, ListResult } from '../../lib/data';
import type { CaseloadFigures } from '../../../schemas/caseload';

export type UserRow = RowOf<typeof userEntity>;
export { userEntity };

export async function listUsers(query: ListQuery): Promise<ListResult<UserRow>> {
  const { data } = await api.get<ListResult<UserRow>>('/users', { params: listParams(query) });
  return data;
}

export async function fetchUser(userId: string): Promise<UserRow> {
  const { data } = await api.get<UserRow>(`/users/${encodeURIComponent(userId)}`);
  return data;
}

/** Role 1 may create anyone (POST /users/); role 7 its own organisation's staff (createStaff). */
export async function createUser(actor: SessionUser, values: Record<string, unknown>): Promise<UserRow> {
  const path = can(actor.role, 'users.createAny') ? '/users/' : '/users/createStaff';
  const { data } = await api.post<UserRow>(path, values, { silent: true });
  return data;
}

/** PUT /users/{id} for role 1, PUT /users/staff/{id} for role 7 (its staff only). */
export async function updateUser(actor: SessionUser, userId: string, values: Record<string, unknown>): Promise<UserRow> {
  const base = can(actor.role, 'users.createAny') ? '/users/' : '/users/staff/';
  const { data } = await api.put<UserRow>(`${base}${encodeURIComponent(userId)}`, values, { silent: true });
  return data;
}

/** Keeps the stored session user in step with an edit of one's own record (name in the sidebar). */
function refreshStoredUser(row: Partial<UserRow>, token = getToken()): void {
  const current = getUser();
  const next = toSessionUser({ ...current, ...row });
  if (next && token) saveSession(next, token);
}

/** PUT /users/self/{id}: one's own name and contact details. */
export async function updateOwnProfile(userId: string, values: Record<string, unknown>): Promise<UserRow> {
  const { data } = await api.put<UserRow>(`/users/self/${encodeURIComponent(userId)}`, values, { silent: true });
  refreshStoredUser(data);
  return data;
}

/** POST /users/changepass. Every other session of the user ends; this one goes on with the
 * token of the answer, stored at once so the next request is not refused. */
export { changePassword } from '../auth';

/** The server copy of a 409 `conflict` answer (someone saved the user since it was read). */
export function conflictCopy(error: unknown): UserRow | null {
  if (!isAxiosError<{ server?: UserRow }>(error) || error.response?.status !== 409) return null;
  return error.response.data?.server ?? null;
}

const TEMPORARY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A temporary password to read out or write down: three groups of four, no look-alikes. */
export function temporaryPassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  const chars = Array.from(bytes, (b) => TEMPORARY_ALPHABET[b % TEMPORARY_ALPHABET.length]);
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8)].map((group) => group.join('')).join('-');
}

/** How long the caseload's figures may take before the screen says they could not be read. */
export const CASELOAD_REQUEST_BOUND_MS = 20_000;

export type { CaseloadFigures };

export interface CaseloadStatus {
  /** True when the user's devices mirror a caseload (a field worker), else their organisation's. */
  caseload: boolean;
  figures: CaseloadFigures;
  /** Every client of their organisation assigned to them, whatever the device keeps. */
  assignedClients: number;
}

export interface CaseloadPreview {
  before: CaseloadFigures;
  after: CaseloadFigures;
  added: { clients: number; rows: number; megabytes: number };
}

/** What a user's devices hold of their caseload (for those who assign clients). */
export async function fetchCaseload(userId: string): Promise<CaseloadStatus> {
  const { data } = await api.get<CaseloadStatus>(`/caseload/users/${encodeURIComponent(userId)}`, {
    silent: true,
    timeout: CASELOAD_REQUEST_BOUND_MS,
  });
  return data;
}

/** What giving `userId` these territories would do to their devices, before it is saved. */
export async function previewTerritories(userId: string, territories: readonly number[]): Promise<CaseloadPreview> {
  const { data } = await api.post<CaseloadPreview>(
    '/caseload/preview',
    { userId, territories },
    { silent: true, timeout: CASELOAD_REQUEST_BOUND_MS },
  );
  return data;
}

/** What receiving every client assigned to `from` would do to `to`'s devices. */
export async function previewMove(to: string, from: string): Promise<CaseloadPreview> {
  const { data } = await api.post<CaseloadPreview>(
    '/caseload/preview',
    { userId: to, from },
    { silent: true, timeout: CASELOAD_REQUEST_BOUND_MS },
  );
  return data;
}

/** Moves the clients assigned to `from` to `to`, at most MAX_ASSIGN a call: how many moved and remain. */
export async function moveClients(from: string, to: string): Promise<{ moved: number; remaining: number }> {
  const { data } = await api.post<{ moved: number; remaining: number }>(
    '/caseload/move',
    { from, to },
    { silent: true, timeout: CASELOAD_REQUEST_BOUND_MS },
  );
  return data;
}

/** A worker a client may be assigned to (GET /api/caseload/workers). */
export interface CaseloadWorker {
  userId: string;
  name: string;
  location: number;
  /** Their devices mirror a caseload: what a move adds to it matters. */
  caseload: boolean;
}

/** The active workers of the caller's organisation who work with clients. */
export async function fetchCaseloadWorkers(): Promise<CaseloadWorker[]> {
  const { data } = await api.get<{ workers: CaseloadWorker[] }>('/caseload/workers', { silent: true, timeout: CASELOAD_REQUEST_BOUND_MS });
  return data.workers;
}

/** A caseload request's answer as a screen holds it: awaited, in hand, or failed with its reason. */
export type Load<T> = { state: 'loading' } | { state: 'done'; value: T } | { state: 'failed'; message: string };

/** Why a caseload request failed, in words: no answer in time, no answer at all, or the server's
 * message (the device caseload and the caseload move ask the same routes). */
export function caseloadFailure(say: Say, error: unknown): string {
  if (isAxiosError(error) && error.code === 'ECONNABORTED') return say('users.caseload.timeout');
  if (isAxiosError(error) && !error.response) return say('users.caseload.unreachable');
  return messageOf(error);
}
