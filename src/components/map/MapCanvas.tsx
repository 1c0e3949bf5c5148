// The MapLibre map itself. Loaded lazily (LazyMap) so the main bundle does not carry MapLibre;
// this module is the only one that imports it.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Box, Typography } from '@mui/material';
import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import Map, { Marker, NavigationControl, Popup, type ErrorEvent, type MapRef } from 'react-map-gl/maplibre';
import { useIntl } from 'react-intl';
import { roundCoord, type LatLng } from './coords';
import { mapStyle } from './mapStyle';

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

export interface MapCanvasProps {
  center: LatLng;
  zoom: number;
  markers: readonly MapMarker[];
  /** Move the view here whenever it changes (a position typed or found by the device). */
  focus?: LatLng | null;
  onMapClick?: (position: LatLng) => void;
  onMarkerDragEnd?: (id: string, position: LatLng) => void;
  height: number | string;
  ariaLabel: string;
  /** The map could not start (no WebGL context, a broken style). */
  onUnavailable: (error: Error) => void;
}

const rounded = (p: { lat: number; lng: number }): LatLng => ({ lat: roundCoord(p.lat), lng: roundCoord(p.lng) });

/** MapLibre's own control texts in the user's language. */
function useMapLocale(): Record<string, string> {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
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

export default function MapCanvas({ center, zoom, markers, focus, onMapClick, onMarkerDragEnd, height, ariaLabel, onUnavailable }: MapCanvasProps) {
  const intl = useIntl();
  const locale = useMapLocale();
  const mapRef = useRef<MapRef>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [tilesFailed, setTilesFailed] = useState(false);
  const open = markers.find((m) => m.id === openId) ?? null;

  useEffect(() => {
    if (focus) mapRef.current?.easeTo({ center: [focus.lng, focus.lat], zoom: Math.max(mapRef.current.getZoom(), 12) });
  }, [focus?.lat, focus?.lng]); // eslint-disable-line react-hooks/exhaustive-deps -- the position, not the object

  const onError = (event: ErrorEvent) => {
    // react-map-gl reports a map that failed to start without a target; anything else is a
    // tile or style request that failed (offline, blocked): the map stays, with a notice.
    if (!event.target) onUnavailable(event.error);
    else setTilesFailed(true);
  };

  return (
    <Box sx={{ position: 'relative', height, width: '100%', borderRadius: 1, overflow: 'hidden', ...CREDITS_UNDERLINED }} role="region" aria-label={ariaLabel}>
      <Map
        ref={mapRef}
        mapLib={maplibregl}
        initialViewState={{ latitude: center.lat, longitude: center.lng, zoom }}
        mapStyle={mapStyle()}
        locale={locale}
        cooperativeGestures
        attributionControl={{ compact: true }}
        style={{ width: '100%', height: '100%' }}
        cursor={onMapClick ? 'crosshair' : undefined}
        onClick={onMapClick ? (event) => onMapClick(rounded(event.lngLat)) : undefined}
        onError={onError}
      >
        <NavigationControl showCompass={false} />
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
        <Alert severity="warning" onClose={() => setTilesFailed(false)} sx={{ position: 'absolute', top: 8, left: 8, right: 52, py: 0, typography: 'body2' }}>
          {intl.formatMessage({ id: 'map.tilesFailed' })}
        </Alert>
      )}
    </Box>
  );
}
