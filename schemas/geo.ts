// The dashboard map's answer (GET /api/stats/geo, ADR-0031): one shape for the server that
// makes it (server/plugins/stats/markers.ts) and the app that draws it (src/lib/http/geoStats.ts).

/** A marker's group: 0 an open job, 1-4 a provider's sp_type. */
export const JOB_GROUP = 0;

/** `[id, lng, lat, group]`: one marker, as short as JSON allows. */
export type MarkerPoint = [id: string, lng: number, lat: number, group: number];
/** `[lng, lat, ...counts per group 0-4]`: the markers of one grid cell at their average position. */
export type MarkerCluster = [lng: number, lat: number, ...counts: number[]];

export interface GeoMarkers {
  /** Markers per group (whole map only). */
  counts?: number[];
  /** Average position of every marker (whole map only; null without markers). */
  center?: { lat: number; lng: number } | null;
  /** Every marker of the view, while there are few enough. */
  points?: MarkerPoint[];
  /** Otherwise grid clusters counted per group. */
  clusters?: MarkerCluster[];
}
