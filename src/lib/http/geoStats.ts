// The map's markers (GET /api/stats/geo, product.md §3 "geo") and their names and addresses (GET
// /api/stats/geo/places), as the dashboard map and the referral map use them. The marker
// answer is bounded (docs/performance.md "Dashboard calls together"): every marker as a short
// tuple while there are at most the server's limit (20,000), else clusters counted per group
// for the asked zoom and view; names and addresses are asked for the markers shown in full.
import type { GeoMarkers } from '../../../schemas/geo';
import { api } from './api';

export interface ProviderPlace {
  id: string;
  name: string;
  address: string | null;
  sp_type: number;
  lat: number;
  lng: number;
}

export interface JobPlace {
  id: string;
  title: string;
  address: string | null;
  lat: number;
  lng: number;
}

/** Names and addresses of markers (GET /stats/geo/places). */
export interface GeoPlaces {
  latlangs: ProviderPlace[];
  jbLatlangs: JobPlace[];
}

export { JOB_GROUP, type GeoMarkers, type MarkerCluster, type MarkerPoint } from '../../../schemas/geo';

/** A map view: zoom and bounds in degrees. */
export interface GeoView {
  zoom: number;
  west: number;
  south: number;
  east: number;
  north: number;
}

/** The markers of a view (the whole map's were clustered: the map asks again when moved). */
export async function fetchGeoView(view: GeoView): Promise<GeoMarkers> {
  const { data } = await api.get<GeoMarkers>('/stats/geo', { params: view, silent: true });
  return data;
}

/** Names and addresses of the providers and jobs of these ids (at most 100 of each). */
export async function fetchGeoPlaces(ids: { providers?: readonly string[]; jobs?: readonly string[] }): Promise<GeoPlaces> {
  const params = { providers: ids.providers?.join(',') || undefined, jobs: ids.jobs?.join(',') || undefined };
  const { data } = await api.get<GeoPlaces>('/stats/geo/places', { params, silent: true });
  return data;
}
