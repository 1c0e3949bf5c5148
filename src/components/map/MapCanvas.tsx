// The MapLibre map itself. Loaded lazily (LazyMap) so the main bundle does not carry MapLibre;
// this module is the only one that imports it.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Box, Typography, useTheme } from '@mui/material';
import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import Map, { Marker, NavigationControl, Popup, type ErrorEvent, type MapLayerMouseEvent, type MapRef } from 'react-map-gl/maplibre';
import { useIntl } from 'react-intl';
import { getCachedLists } from '../../lib/data';
import { roundCoord, type LatLng } from './coords';
import { mapStyle, territoryPoints } from './mapStyle';
import { VisibleMarkers, type PointNames } from './VisibleMarkers';
import {
  PointLayers,
  POINT_LAYER_IDS,
  ServerClusterLayers,
  clusterClicked,
  pointClicked,
  showPinImage,
  type CountedCluster,
  type MapPoint,
  type PointGroup,
} from './PointLayers';
import { useSay } from '../../lib/session';

// Under a bundler MapLibre cannot find its worker next to itself (v6 migration guide): Vite
// emits the file for this `?url` import and we point MapLibre at it, once, when the chunk loads.
maplibregl.setWorkerUrl(workerUrl);

/** The map's credit links are underlined: a link inside text must not rely on colour alone (WCAG 1.4.1). */
const CREDITS_UNDERLINED = { '& .maplibregl-ctrl-attrib a': { textDecoration: 'underline' } } as const;

export interface MapMarker extends LatLng {
  id: string;
  /** Marker colour (CSS); MapLibre's default blue when absent. */
  color?: string;
  /** Accessible name of the marker and title of its popup. */
  title?: string;
  /** Content of the popup opened by a click. */
  popup?: ReactNode;
  draggable?: boolean;
}

/** What the map shows: its zoom and bounds in degrees. */
export interface MapViewport {
  zoom: number;
  west: number;
  south: number;
  east: number;
  north: number;
}

export interface MapCanvasProps {
  center: LatLng;
  zoom: number;
  /** A few markers drawn as elements (a picked position, a record's place): draggable, focusable. */
  markers: readonly MapMarker[];
  /** Many points drawn as GL layers, clustered (the dashboard): thousands stay smooth. */
  groups?: readonly PointGroup[];
  /** Markers gathered by the server, drawn as clusters that zoom in on click. */
  clusters?: readonly CountedCluster[];
  /** Called when the map has loaded and after every move (the server's clusters change with the view). */
  onViewChange?: (view: MapViewport) => void;
  /** Content of the info window of a GL point (default: its title). */
  renderPointPopup?: (point: MapPoint, group: PointGroup) => ReactNode;
  /** Names of GL points for the list of the markers in view (default: their titles). */
  pointNames?: PointNames;
  /** A group's name as that list says it. */
  groupName?: (group: PointGroup) => string;
  /** Move the view here whenever it changes (a position typed or found by the device). */
  focus?: LatLng | null;
  onMapClick?: (position: LatLng) => void;
  onMarkerDragEnd?: (id: string, position: LatLng) => void;
  height: number | string;
  ariaLabel: string;
  /** The map could not start (no WebGL context, a broken style). */
  onUnavailable: (error: Error) => void;
}

const NO_GROUPS: readonly PointGroup[] = [];

const rounded = (p: { lat: number; lng: number }): LatLng => ({ lat: roundCoord(p.lat), lng: roundCoord(p.lng) });

/** MapLibre's own control texts in the user's language. */
function useMapLocale(): Record<string, string> {
  const t = useSay();
  return {
    'NavigationControl.ZoomIn': t('map.zoomIn'),
    'NavigationControl.ZoomOut': t('map.zoomOut'),
    'NavigationControl.ResetBearing': t('map.resetBearing'),
    'AttributionControl.ToggleAttribution': t('map.attribution'),
    'Popup.Close': t('map.closePopup'),
    'Map.Title': t('map.title'),
    'Marker.Title': t('map.marker'),
    'CooperativeGesturesHandler.WindowsHelpText': t('map.gestureWindows'),
    'CooperativeGesturesHandler.MacHelpText': t('map.gestureMac'),
    'CooperativeGesturesHandler.MobileHelpText': t('map.gestureMobile'),
  };
}

function MarkerPopup({ marker, onClose }: { marker: MapMarker; onClose: () => void }) {
  return (
    <Popup longitude={marker.lng} latitude={marker.lat} anchor="bottom" offset={36} onClose={onClose} closeOnClick={false} maxWidth="280px">
      <Box sx={{ color: 'text.primary', pr: 2 }}>
        {marker.title && (
          <Typography variant="subtitle2" component="p">
            {marker.title}
          </Typography>
        )}
        {marker.popup}
      </Box>
    </Popup>
  );
}

/** A GL point's info window. Opened from the list of markers (`focus`), it takes the focus, so
 * a screen reader reads it (and Escape closes it: MapCanvas). */
function PointPopup({
  point,
  group,
  render,
  focus,
  onClose,
}: {
  point: MapPoint;
  group: PointGroup;
  render?: MapCanvasProps['renderPointPopup'];
  focus: boolean;
  onClose: () => void;
}) {
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!focus) return;
    // The popup's element joins the page after its children's effects run.
    const frame = requestAnimationFrame(() => content.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [focus, point.id]);
  return (
    <Popup
      longitude={point.lng}
      latitude={point.lat}
      anchor="bottom"
      offset={group.symbol === 'pin' ? 24 : 10}
      onClose={onClose}
      closeOnClick={false}
      focusAfterOpen={false}
      maxWidth="280px"
    >
      <Box ref={content} tabIndex={-1} aria-live="polite" sx={{ color: 'text.primary', pr: 2, outline: 'none' }} data-testid="map-popup">
        {render ? (
          render(point, group)
        ) : (
          <Typography variant="subtitle2" component="p">
            {point.title}
          </Typography>
        )}
      </Box>
    </Popup>
  );
}

/** The style in the app's theme and language (territory names), made again only when they change. */
function useThemedStyle() {
  const dark = useTheme().palette.mode === 'dark';
  const lang = useIntl().locale.startsWith('en') ? 'en' : 'fr';
  return useMemo(() => mapStyle(dark, territoryPoints(getCachedLists(), lang)), [dark, lang]);
}

export default function MapCanvas(props: MapCanvasProps) {
  const {
    center,
    zoom,
    markers,
    groups,
    clusters,
    onViewChange,
    renderPointPopup,
    pointNames,
    groupName,
    focus,
    onMapClick,
    onMarkerDragEnd,
    height,
    ariaLabel,
    onUnavailable,
  } = props;
  const say = useSay();
  const locale = useMapLocale();
  const style = useThemedStyle();
  const mapRef = useRef<MapRef>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [openPoint, setOpenPoint] = useState<{ point: MapPoint; group: PointGroup; opener?: HTMLElement } | null>(null);
  /** The map once loaded (the list of markers in view reads it). */
  const [loaded, setLoaded] = useState<maplibregl.Map | null>(null);
  const [hovering, setHovering] = useState(false);
  const [tilesFailed, setTilesFailed] = useState(false);
  const open = markers.find((m) => m.id === openId) ?? null;
  const pointCount = groups?.reduce((sum, g) => sum + g.points.length, 0) ?? 0;
  // A point of a group just hidden keeps no info window.
  const shownPoint = openPoint && groups?.some((g) => g.id === openPoint.group.id) ? openPoint : null;

  const onGlClick = (event: MapLayerMouseEvent) => {
    const feature = event.features?.[0];
    if (feature && mapRef.current) {
      if (clusterClicked(mapRef.current.getMap(), feature)) return;
      const hit = pointClicked(feature, groups ?? []);
      if (hit) setOpenPoint(hit);
      return;
    }
    if (onMapClick) onMapClick(rounded(event.lngLat));
  };

  useEffect(() => {
    if (focus) mapRef.current?.easeTo({ center: [focus.lng, focus.lat], zoom: Math.max(mapRef.current.getZoom(), 12) });
  }, [focus?.lat, focus?.lng]); // eslint-disable-line react-hooks/exhaustive-deps -- the position, not the object

  /** Closes the info window; one opened from the list gives the focus back to its button. */
  const closePoint = () => {
    if (openPoint?.opener?.isConnected) openPoint.opener.focus();
    setOpenPoint(null);
  };

  const reportView = (map: maplibregl.Map) => {
    const bounds = map.getBounds();
    onViewChange?.({
      zoom: map.getZoom(),
      west: bounds.getWest(),
      south: bounds.getSouth(),
      east: bounds.getEast(),
      north: bounds.getNorth(),
    });
  };

  const onError = (event: ErrorEvent) => {
    // react-map-gl reports a map that failed to start without a target; anything else is a
    // tile or style request that failed (offline, blocked): the map stays, with a notice.
    if (!event.target) onUnavailable(event.error);
    else setTilesFailed(true);
  };

  return (
    <>
      <Box
        sx={{ position: 'relative', height, width: '100%', borderRadius: 1, overflow: 'hidden', ...CREDITS_UNDERLINED }}
        role="region"
        aria-label={ariaLabel}
        // Escape closes an info window (its close button or its text has the focus).
        onKeyDown={(event) => {
          if (event.key === 'Escape' && openPoint) closePoint();
        }}
        data-points={groups ? pointCount : undefined}
        data-clusters={clusters ? clusters.reduce((sum, c) => sum + c.count, 0) : undefined}
      >
        <Map
          ref={mapRef}
          mapLib={maplibregl}
          initialViewState={{ latitude: center.lat, longitude: center.lng, zoom }}
          mapStyle={style}
          locale={locale}
          cooperativeGestures
          attributionControl={{ compact: true }}
          style={{ width: '100%', height: '100%' }}
          cursor={hovering ? 'pointer' : onMapClick ? 'crosshair' : undefined}
          interactiveLayerIds={groups || clusters ? POINT_LAYER_IDS : undefined}
          onMouseEnter={groups ? () => setHovering(true) : undefined}
          onMouseLeave={groups ? () => setHovering(false) : undefined}
          onClick={groups || clusters || onMapClick ? onGlClick : undefined}
          onMoveEnd={onViewChange ? (event) => reportView(event.target) : undefined}
          onLoad={(event) => {
            // Pins are drawn here rather than fetched as a sprite: nothing leaves the app.
            event.target.on('styleimagemissing', (e: { id: string }) => showPinImage(event.target, e.id));
            // Tools and the browser tests reach the map through its container (to place clicks).
            Object.defineProperty(event.target.getContainer(), 'maplibreMap', { value: event.target, configurable: true });
            reportView(event.target);
            setLoaded(event.target);
          }}
          onError={onError}
        >
          <NavigationControl showCompass={false} />
          {clusters && <ServerClusterLayers clusters={clusters} />}
          {groups && <PointLayers groups={groups} />}
          {shownPoint && (
            <PointPopup
              point={shownPoint.point}
              group={shownPoint.group}
              render={renderPointPopup}
              focus={Boolean(shownPoint.opener)}
              onClose={closePoint}
            />
          )}
          {markers.map((marker) => (
            <Marker
              key={marker.id}
              longitude={marker.lng}
              latitude={marker.lat}
              color={marker.color}
              draggable={marker.draggable}
              onDragEnd={(event) => onMarkerDragEnd?.(marker.id, rounded(event.lngLat))}
              onClick={(event) => {
                // The map's own click would move the picked position or close the popup.
                event.originalEvent.stopPropagation();
                if (marker.title || marker.popup) setOpenId(marker.id);
              }}
            />
          ))}
          {open && <MarkerPopup marker={open} onClose={() => setOpenId(null)} />}
        </Map>
        {tilesFailed && (
          // At the top, clear of the attribution (bottom) and the zoom buttons (top right).
          <Alert
            severity="warning"
            onClose={() => setTilesFailed(false)}
            sx={{ position: 'absolute', top: 8, left: 8, right: 52, py: 0, typography: 'body2' }}
          >
            {say('map.tilesFailed')}
          </Alert>
        )}
      </Box>
      {loaded && (groups || clusters) && (
        <VisibleMarkers
          map={loaded}
          groups={groups ?? NO_GROUPS}
          pointNames={pointNames}
          groupName={groupName}
          onOpenPoint={(hit, opener) => setOpenPoint({ ...hit, opener })}
        />
      )}
    </>
  );
}
