// A read-only map of markers with popups (a provider's page, a job's page, the dashboard),
// centred on the markers' average position at zoom 7.5 (spec §2, §9).
import { useIntl } from 'react-intl';
import { averageCenter, DEFAULT_ZOOM, FALLBACK_CENTER, isLatLng, PLACE_ZOOM, type LatLng } from './coords';
import { LazyMap } from './LazyMap';
import type { MapMarker } from './MapCanvas';

export interface MapViewProps {
  markers: readonly MapMarker[];
  /** Default: the markers' average position (one marker: the marker, closer). */
  center?: LatLng;
  zoom?: number;
  /** Map height in px (default 320). */
  height?: number | string;
  ariaLabel?: string;
}

export function MapView({ markers, center, zoom, height = 320, ariaLabel }: MapViewProps) {
  const intl = useIntl();
  const placed = markers.filter((m) => isLatLng(m));
  const single = placed.length === 1;
  return (
    <LazyMap
      center={center ?? averageCenter(placed) ?? FALLBACK_CENTER}
      zoom={zoom ?? (single ? PLACE_ZOOM : DEFAULT_ZOOM)}
      markers={placed}
      height={height}
      ariaLabel={ariaLabel ?? intl.formatMessage({ id: 'map.title' })}
    />
  );
}
