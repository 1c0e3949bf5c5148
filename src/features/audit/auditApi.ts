// The audit routes of the API (ADR-0036, docs/api.md): a record's history, the audit log and
// its CSV, the client data requests search, and a client's export and erasure. Online only:
// nothing here is kept on the device.
import type { EraseReason } from '../../../schemas/erasure';
import { isAxiosError } from 'axios';
import { api } from '../../lib/http';
import { downloadBlob } from '../../lib/ui';
import type { AuditFilters, AuditPage, ClientMatch } from './types';

/** History entries per page of a record's History section. */
export const HISTORY_PAGE_SIZE = 20;

/** The query parameters of the filters that are set. */
export function filterParams(filters: AuditFilters): Record<string, string | number> {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined && value !== '' && value !== null)) as Record<
    string,
    string | number
  >;
}

/** GET /api/history/:entity/:id: the record's entries, newest first (404: not readable). */
export async function fetchHistory(entity: string, recordId: string, page: number, pageSize = HISTORY_PAGE_SIZE): Promise<AuditPage> {
  const { data } = await api.get<AuditPage>(`/history/${encodeURIComponent(entity)}/${encodeURIComponent(recordId)}`, {
    params: { page, pageSize },
    silent: true,
  });
  return data;
}

/**
 * Who created the record, as its history tells it (its oldest entry, a 'create'): the same
 * entries the record's History shows its reader, so a name is given to whoever may read them
 * (docs/adr/0048-first-day-screens.md "Who registered a client"). Null when the history does not say, or
 * cannot be read.
 */
export async function creatorName(entity: string, recordId: string): Promise<string | null> {
  try {
    const size = 5; // the smallest page the API offers (PAGE_SIZES)
    const first = await fetchHistory(entity, recordId, 1, size);
    if (first.total < 1 || first.totalIsLowerBound) return null;
    const lastPage = Math.ceil(first.total / size);
    const oldest = (lastPage === 1 ? first : await fetchHistory(entity, recordId, lastPage, size)).rows.at(-1);
    return oldest?.action === 'create' && oldest.entity === entity && oldest.userName ? oldest.userName : null;
  } catch {
    return null;
  }
}

/** GET /api/audit: one page of the log (roles 1 and 7; role 7 sees its organisation's). */
export async function fetchAudit(filters: AuditFilters, page: number, pageSize: number): Promise<AuditPage> {
  const { data } = await api.get<AuditPage>('/audit', { params: { ...filterParams(filters), page, pageSize }, silent: true });
  return data;
}

/** The file name a Content-Disposition header gives, if any. */
export function attachmentName(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (encoded?.[1]) {
    try {
      return decodeURIComponent(encoded[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || null;
}

function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** An error answer to a file request arrives as a Blob: read its JSON body, so that the
 * server's message (in the user's language) can be shown. */
async function readErrorBody(error: unknown): Promise<never> {
  const data: unknown = isAxiosError(error) ? error.response?.data : undefined;
  if (isAxiosError(error) && error.response && data instanceof Blob) {
    try {
      error.response.data = JSON.parse(await data.text()) as unknown;
    } catch {
      // not JSON: the status text stands
    }
  }
  throw error;
}

/** Fetches a server file (an attachment) and saves it under its own name, else `fallback`. */
async function saveAttachment(url: string, params: Record<string, string | number>, fallback: string): Promise<void> {
  const response = await api.get<Blob>(url, { params, responseType: 'blob', silent: true }).catch(readErrorBody);
  const name = attachmentName(response.headers['content-disposition']) ?? fallback;
  downloadBlob(response.data, name);
}

/** GET /api/audit/csv with the screen's filters (the export is audited by the server). */
export function downloadAuditCsv(filters: AuditFilters): Promise<void> {
  return saveAttachment('/audit/csv', filterParams(filters), `audit-${today()}.csv`);
}

/** GET /api/audit/clients?q=: clients matching a name or registration number. */
export async function searchClients(q: string): Promise<ClientMatch[]> {
  const { data } = await api.get<{ rows: ClientMatch[] }>('/audit/clients', { params: { q }, silent: true });
  return data.rows;
}

/** GET /api/profile/:id/export: everything held about the client, as one ZIP. */
export function exportClient(profId: string, regNo?: string): Promise<void> {
  return saveAttachment(`/profile/${encodeURIComponent(profId)}/export`, {}, `client-${regNo || profId}-${today()}.zip`);
}

/** POST /api/profile/:id/erase: a wrong password rejects (400 delete.badPassword), and so does a
 * note holding the client's values (400 erase.noteHasClientValue, `errors` on the field `note`). */
export async function eraseClient(profId: string, reasonCode: EraseReason, note: string, password: string): Promise<void> {
  await api.post(`/profile/${encodeURIComponent(profId)}/erase`, { reasonCode, ...(note ? { note } : {}), password }, { silent: true });
}
