// The API calls of the referral screens. Referrals live on the server only (the device store
// holds the 13 tables of product.md §3), so these go straight to the API through the app's client.
import { isAxiosError } from 'axios';
import { api, fetchGeoPlaces, type ProviderPlace } from '../../lib/http';
import { listParams } from '../../../schemas/listQuery';
import type { ListQuery, ListResult } from '../../lib/data';
import { KIND_INFO, type ReferralKind } from './kinds';

export type Row = Record<string, unknown>;

export type { Attachment, StatusChange } from '../../../schemas/index';

const rest = (kind: ReferralKind) => KIND_INFO[kind].entity.rest as string;

/** One page of the list view (a referral with its client and its service or job). */
export async function searchReferrals(kind: ReferralKind, query: ListQuery): Promise<ListResult<Row>> {
  const { data } = await api.post<ListResult<Row>>(`${rest(kind)}/search`, listParams(query));
  return data;
}

/** The referral, or null when it does not exist for this user (unknown, or another organisation's). */
export async function getReferral(kind: ReferralKind, key: string): Promise<Row | null> {
  try {
    const { data } = await api.get<Row>(`${rest(kind)}/${encodeURIComponent(key)}`, { silent: true });
    return data;
  } catch (error) {
    if (isAxiosError(error) && error.response?.status === 404) return null;
    throw error;
  }
}

export async function createReferral(kind: ReferralKind, body: Row): Promise<Row> {
  const { data } = await api.post<Row>(`${rest(kind)}/`, body, { silent: true });
  return data;
}

/** The answer of an edit: the saved row, or the server's copy when a colleague changed it since
 * the copy the edit was based on (409 conflict). */
export type UpdateOutcome = { saved: Row } | { conflict: Row };

export async function updateReferral(kind: ReferralKind, key: string, body: Row): Promise<UpdateOutcome> {
  try {
    const { data } = await api.put<Row>(`${rest(kind)}/${encodeURIComponent(key)}`, body, { silent: true });
    return { saved: data };
  } catch (error) {
    const server = isAxiosError<{ server?: Row }>(error) && error.response?.status === 409 ? error.response.data?.server : undefined;
    if (server) return { conflict: server };
    throw error;
  }
}

/** Attaches files to a service referral (same file rules as the other images: type, 5 MB). */
export async function attachFiles(key: string, files: readonly File[]): Promise<Row> {
  const form = new FormData();
  for (const file of files) form.append('file', file, file.name);
  const { data } = await api.put<Row>(`/referral/images/${encodeURIComponent(key)}`, form, {
    headers: { 'Content-Type': 'multipart/form-data' },
    silent: true,
  });
  return data;
}

/** The bytes of an attachment. */
export async function fetchAttachment(key: string, name: string): Promise<Blob> {
  const { data } = await api.get<Blob>('/imgs/getrefimg', { params: { id: key, imagename: name }, responseType: 'blob' });
  return data;
}

// ---------------------------------------------------------------------------------------------
// What a referral points at, and what the referral form offers
// ---------------------------------------------------------------------------------------------

export async function getRecord(path: string): Promise<Row | null> {
  try {
    const { data } = await api.get<Row>(path, { silent: true });
    return data;
  } catch (error) {
    if (isAxiosError(error) && error.response?.status === 404) return null;
    throw error;
  }
}

/** Clients matching a name or registration number (the server's scope: the user's organisation). */
export async function findClients(q: string): Promise<Row[]> {
  const { data } = await api.get<ListResult<Row>>('/profile', { params: { q, pageSize: 10, sort: 'lastName', dir: 'asc' } });
  return data.rows;
}

export interface TargetFilter {
  q?: string;
  category?: number;
  serviceType?: number;
  territory?: number;
  sector?: number;
}

const clean = (filter: TargetFilter) => Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== ''));

/** Verified services (status 1) matching the filter, at most 100. */
export async function findServices(filter: TargetFilter): Promise<ListResult<Row>> {
  const { data } = await api.post<ListResult<Row>>('/spDetail/search/', {
    ...clean(filter),
    status: 1,
    pageSize: 100,
    sort: 'name',
    dir: 'asc',
  });
  return data;
}

/** Open jobs matching the filter, at most 100. */
export async function findJobs(filter: TargetFilter): Promise<ListResult<Row>> {
  const { data } = await api.post<ListResult<Row>>('/jobs/search/', {
    ...clean(filter),
    open: true,
    pageSize: 100,
    sort: 'title',
    dir: 'asc',
  });
  return data;
}

export type { ProviderPlace };

/** Places (name, address, position) of these providers, those with coordinates: the markers
 * of the service map. */
export async function providerPlaces(providerIds: readonly string[]): Promise<ProviderPlace[]> {
  if (!providerIds.length) return [];
  return (await fetchGeoPlaces({ providers: providerIds })).latlangs;
}
