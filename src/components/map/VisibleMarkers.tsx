// The GL markers for a keyboard and a screen reader (ADR-0031): a map's canvas draws its points
// and clusters as pixels, which neither can reach. Below the map, a button opens the list of
// the markers in view, in reading order (north to south, west to east), kept up to date as
// the map moves (the canvas itself pans with the arrow keys and zooms with + and −). A point's
// button opens the same info window a click opens; a cluster's zooms in on it, as a click does.
// Only MapCanvas imports this module (it loads with the lazy map chunk).
import { useEffect, useRef, useState } from 'react';
import { Box, Button, List, ListItem, ListItemButton, ListItemText, Typography } from '@mui/material';
import ListIcon from '@mui/icons-material/FormatListBulleted';
import type { Map as MaplibreMap, MapGeoJSONFeature } from 'maplibre-gl';
import { clusterClicked, pointClicked, POINT_LAYER_IDS, type MapPoint, type PointGroup } from './PointLayers';
import { useSay } from '../../lib/session';

/** More buttons than this would be a chore to walk through: zooming in narrows the list. */
export const MAX_LISTED = 50;

export type ListedMarker =
  | { kind: 'point'; key: string; lng: number; lat: number; point: MapPoint; group: PointGroup }
  | { kind: 'cluster'; key: string; lng: number; lat: number; count: number; feature: MapGeoJSONFeature };

/** Names of points for the list (the dashboard asks the server; default: the points' titles). */
export type PointNames = (points: readonly { point: MapPoint; group: PointGroup }[]) => Promise<Record<string, string>>;

/** The markers drawn in the map's view, each once, in reading order. */
export function markersInView(map: MaplibreMap, groups: readonly PointGroup[]): ListedMarker[] {
  const layers = POINT_LAYER_IDS.filter((id) => map.getLayer(id));
  const seen = new Map<string, ListedMarker>();
  for (const feature of layers.length ? map.queryRenderedFeatures({ layers }) : []) {
    if (feature.geometry.type !== 'Point') continue;
    const [lng, lat] = feature.geometry.coordinates as [number, number];
    const props = (feature.properties ?? {}) as { point_count?: number; cluster_id?: number };
    if (props.point_count !== undefined) {
      const key = `cluster:${props.cluster_id ?? `${lng},${lat}`}`;
      if (!seen.has(key)) seen.set(key, { kind: 'cluster', key, lng, lat, count: props.point_count, feature });
      continue;
    }
    const hit = pointClicked(feature, groups);
    if (hit && !seen.has(`point:${hit.point.id}`))
      seen.set(`point:${hit.point.id}`, { kind: 'point', key: `point:${hit.point.id}`, lng, lat, ...hit });
  }
  return [...seen.values()].sort((a, b) => b.lat - a.lat || a.lng - b.lng);
}

interface VisibleMarkersProps {
  map: MaplibreMap;
  groups: readonly PointGroup[];
  /** Opens a point's info window; `opener` gets the focus back when it closes. */
  onOpenPoint: (hit: { point: MapPoint; group: PointGroup }, opener: HTMLElement) => void;
  pointNames?: PointNames;
  /** Names of the groups as the list says them (default: none). */
  groupName?: (group: PointGroup) => string;
}

/** The markers in view, read again every time the map comes to rest. */
function useMarkersInView(map: MaplibreMap, groups: readonly PointGroup[], enabled: boolean): ListedMarker[] {
  const [listed, setListed] = useState<ListedMarker[]>([]);
  useEffect(() => {
    if (!enabled) return;
    const read = () => setListed(markersInView(map, groups));
    read();
    map.on('idle', read);
    return () => {
      map.off('idle', read);
    };
  }, [map, groups, enabled]);
  return listed;
}

/** Names of the listed points, asked once per set of points; a failure leaves the default labels. */
function useNames(points: readonly { point: MapPoint; group: PointGroup }[], pointNames: PointNames | undefined): Record<string, string> {
  const [names, setNames] = useState<Record<string, string>>({});
  const key = points.map((p) => p.point.id).join(',');
  useEffect(() => {
    const missing = points.filter((p) => !p.point.title && !(p.point.id in names));
    if (!pointNames || !missing.length) return;
    let current = true;
    pointNames(missing).then(
      (found) => current && setNames((known) => ({ ...known, ...found })),
      (error: unknown) => console.warn('Marker names not loaded:', error),
    );
    return () => {
      current = false;
    };
  }, [key, pointNames]); // eslint-disable-line react-hooks/exhaustive-deps -- the points' ids, not the array
  return names;
}

export function VisibleMarkers({ map, groups, onOpenPoint, pointNames, groupName }: VisibleMarkersProps) {
  const [open, setOpen] = useState(false);
  const all = useMarkersInView(map, groups, open);
  const listed = all.slice(0, MAX_LISTED);
  const points = listed.flatMap((m) => (m.kind === 'point' ? [m] : []));
  const names = useNames(points, pointNames);
  const status = useRef<HTMLParagraphElement>(null);
  const markerCount = all.reduce((sum, m) => sum + (m.kind === 'cluster' ? m.count : 1), 0);
  const say = useSay();

  const labelOf = (m: ListedMarker, index: number): string => {
    if (m.kind === 'cluster') return say('map.list.cluster', { count: m.count });
    const name = m.point.title ?? names[m.point.id] ?? say('map.list.point', { n: index + 1 });
    const group = groupName?.(m.group);
    return group ? `${name} (${group})` : name;
  };

  return (
    <Box sx={{ mt: 1 }}>
      <Button
        size="small"
        startIcon={<ListIcon />}
        aria-expanded={open}
        onClick={() => setOpen((shown) => !shown)}
        data-testid="map-list-toggle"
        sx={{ textTransform: 'none' }}
      >
        {say(open ? 'map.list.hide' : 'map.list.show')}
      </Button>
      {open && (
        <Box data-testid="map-list">
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {say('map.list.hint')}
          </Typography>
          {/* Announced as the view changes; focused after a cluster opens (its button goes). */}
          <Typography
            variant="body2"
            role="status"
            ref={status}
            tabIndex={-1}
            data-testid="map-list-count"
            sx={{ mt: 0.5, outline: 'none' }}
          >
            {say('map.list.count', { count: markerCount })}
          </Typography>
          <List dense aria-label={say('map.list.label')} sx={{ maxHeight: 320, overflowY: 'auto' }}>
            {listed.map((m, index) => (
              <ListItem key={m.key} disablePadding>
                <ListItemButton
                  data-testid={m.kind === 'cluster' ? 'map-list-cluster' : 'map-list-point'}
                  onClick={(event) => {
                    if (m.kind === 'point') onOpenPoint({ point: m.point, group: m.group }, event.currentTarget);
                    else if (clusterClicked(map, m.feature)) status.current?.focus();
                  }}
                >
                  <ListItemText primary={labelOf(m, index)} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
          {all.length > MAX_LISTED && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {say('map.list.more', { count: all.length - MAX_LISTED })}
            </Typography>
          )}
        </Box>
      )}
    </Box>
  );
}
