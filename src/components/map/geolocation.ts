// The device's position for "use my position", with a reason people understand when there is
// none: refused, not supported, needs a secure (https) page, no fix, too slow.
import { roundCoord, type LatLng } from './coords';

export type GeoFailure = 'unsupported' | 'insecure' | 'denied' | 'unavailable' | 'timeout';

export class GeoError extends Error {
  constructor(readonly reason: GeoFailure) {
    super(reason);
    this.name = 'GeoError';
  }
}

/** A GPS fix outdoors takes a few seconds; indoors it may never come. */
export const GEO_TIMEOUT_MS = 20_000;

const REASONS: Record<number, GeoFailure> = { 1: 'denied', 2: 'unavailable', 3: 'timeout' };

export function currentPosition(geo: Geolocation | undefined = globalThis.navigator?.geolocation): Promise<LatLng & { accuracy: number }> {
  if (!geo) return Promise.reject(new GeoError('unsupported'));
  // Browsers only give positions to https pages (and localhost).
  if (globalThis.isSecureContext === false) return Promise.reject(new GeoError('insecure'));
  return new Promise((resolve, reject) => {
    geo.getCurrentPosition(
      (position) =>
        resolve({
          lat: roundCoord(position.coords.latitude),
          lng: roundCoord(position.coords.longitude),
          accuracy: position.coords.accuracy,
        }),
      (error) => reject(new GeoError(REASONS[error.code] ?? 'unavailable')),
      { enableHighAccuracy: true, timeout: GEO_TIMEOUT_MS, maximumAge: 60_000 },
    );
  });
}
