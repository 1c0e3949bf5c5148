// Coordinates as the forms and maps use them, without MapLibre (so the main bundle and the
// tests never load it).
import type { LookupLists } from '../../lib/data';

export interface LatLng {
  lat: number;
  lng: number;
}

/** product.md §9: maps open at zoom 7.5. */
export const DEFAULT_ZOOM = 7.5;

/** Zoom when the map shows one chosen place (street level). */
export const PLACE_ZOOM = 14;

/** North Kivu, where the programme's territories are, when the device knows none of them. */
export const FALLBACK_CENTER: LatLng = { lat: -0.9, lng: 29.1 };

/** Six decimals are about 10 cm: more is noise from the GPS or the mouse. */
export function roundCoord(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export function isLatLng(value: Partial<LatLng> | null | undefined): value is LatLng {
  return (
    typeof value?.lat === 'number' &&
    typeof value.lng === 'number' &&
    Number.isFinite(value.lat) &&
    Number.isFinite(value.lng) &&
    Math.abs(value.lat) <= 90 &&
    Math.abs(value.lng) <= 180
  );
}

/** A typed coordinate: '-1.6792', '-1,6792' (decimal comma), '' → null. */
export function parseCoord(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : Number.NaN;
}

/** product.md §2: a map of markers is centred on their average position. */
export function averageCenter(points: readonly Partial<LatLng>[]): LatLng | null {
  const valid = points.filter(isLatLng);
  if (!valid.length) return null;
  const sum = valid.reduce((acc, p) => ({ lat: acc.lat + p.lat, lng: acc.lng + p.lng }), { lat: 0, lng: 0 });
  return { lat: sum.lat / valid.length, lng: sum.lng / valid.length };
}

/** The centre of the territories the device knows (their items carry lat/lng), else North Kivu. */
export function defaultCenter(lists: LookupLists | null, territory?: number | null): LatLng {
  const items = lists?.territory ?? [];
  const own = items.find((item) => item.id === territory);
  if (isLatLng(own)) return { lat: own.lat, lng: own.lng };
  return averageCenter(items) ?? FALLBACK_CENTER;
}
