// A read-only map of markers with popups (a provider's page, a job's page, the dashboard),
// centred on the markers' average position at zoom 7.5 (product.md §2, §9).
import { averageCenter, DEFAULT_ZOOM, FALLBACK_CENTER, isLatLng, PLACE_ZOOM, type LatLng } from './coords';
import { LazyMap } from './LazyMap';
import type { MapCanvasProps, MapMarker } from './MapCanvas';
import type { PointGroup } from './PointLayers';
import { useSay } from '../../lib/session';

export interface MapViewProps {
  /** A few markers drawn as elements. */
  markers?: readonly MapMarker[];
  /** Many points drawn as clustered GL layers (the dashboard). */
  groups?: readonly PointGroup[];
  /** Markers gathered by the server (too many to send one by one). */
  clusters?: MapCanvasProps['clusters'];
  onViewChange?: MapCanvasProps['onViewChange'];
  renderPointPopup?: MapCanvasProps['renderPointPopup'];
  pointNames?: MapCanvasProps['pointNames'];
  groupName?: MapCanvasProps['groupName'];
  /** Default: the average position of every marker and point (one marker: the marker, closer). */
  center?: LatLng;
  zoom?: number;
  /** Map height in px (default 320). */
  height?: number | string;
  ariaLabel?: string;
  /** Start only once the map is on or near the screen (a map far below a screen's content). */
  whenShown?: boolean;
}

export function MapView({
  markers = [],
  groups,
  clusters,
  onViewChange,
  renderPointPopup,
  pointNames,
  groupName,
  center,
  zoom,
  height = 320,
  ariaLabel,
  whenShown,
}: MapViewProps) {
  const say = useSay();
  const placed = markers.filter((m) => isLatLng(m));
  const points = groups?.flatMap((g) => g.points.filter((p) => isLatLng(p))) ?? [];
  const single = placed.length + points.length === 1;
  return (
    <LazyMap
      center={center ?? averageCenter([...placed, ...points]) ?? FALLBACK_CENTER}
      zoom={zoom ?? (single ? PLACE_ZOOM : DEFAULT_ZOOM)}
      markers={placed}
      groups={groups}
      clusters={clusters}
      onViewChange={onViewChange}
      renderPointPopup={renderPointPopup}
      pointNames={pointNames}
      groupName={groupName}
      height={height}
      ariaLabel={ariaLabel ?? say('map.title')}
      whenShown={whenShown}
    />
  );
}
