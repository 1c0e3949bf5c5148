// The answer of GET /api/stats/geo (spec §3 "geo (latlangs, jbLatlangs)"): the geo-located
// providers and open jobs the user may read, as the dashboard map and the referral map use it.

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

export interface GeoStats {
  latlangs: ProviderPlace[];
  jbLatlangs: JobPlace[];
}
