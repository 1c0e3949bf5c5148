// The user routes of the API (product.md §7 "Auth and users"). Users are no RxDB collection (product.md
// §D6: the open-core limit), so these screens are online ones and call the API directly.
import { isAxiosError } from 'axios';
import { user as userEntity, type RowOf } from '../../../schemas/index';
import { can } from '../../lib/permissions';
import { api } from '../../lib/api';
import { listParams } from '../../../schemas/listQuery';
import type { ListQuery, ListResult } from '../../lib/datalayer';
import { getUser, getToken, saveSession, toSessionUser, type SessionUser } from '../../lib/session';
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
