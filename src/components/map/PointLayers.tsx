// Many points on a map as GL layers (issue 13): one clustered GeoJSON source, circles in each
// group's colour, pins drawn on a canvas (no sprite to fetch), and clusters that open on click.
// Only MapCanvas imports this module, so it loads with the lazy map chunk.
import { useMemo } from 'react';
import { useTheme } from '@mui/material';
import type { Feature, FeatureCollection, Point } from 'geojson';
import type { GeoJSONSource, Map as MaplibreMap, MapGeoJSONFeature } from 'maplibre-gl';
import { Layer, Source } from 'react-map-gl/maplibre';
import type { LatLng } from './coords';

export interface MapPoint extends LatLng {
  id: string;
  title: string;
  address?: string | null;
}

export interface PointGroup {
  id: string;
  /** CSS colour of the group's markers (a hex colour: it names the pin image). */
  color: string;
  symbol: 'circle' | 'pin';
  points: readonly MapPoint[];
}

const SOURCE = 'icrs-points';
const CLUSTERS = 'icrs-point-clusters';
const CLUSTER_COUNTS = 'icrs-point-cluster-counts';
const CIRCLES = 'icrs-point-circles';
const PINS = 'icrs-point-pins';
const PIN_PREFIX = 'icrs-pin-';

/** The layers a click or a hover answers on. */
export const POINT_LAYER_IDS = [CLUSTERS, CIRCLES, PINS];

/** Clusters gather points closer than this many pixels, up to this zoom. */
const CLUSTER_RADIUS = 48;
const CLUSTER_MAX_ZOOM = 14;

function toFeatures(groups: readonly PointGroup[]): FeatureCollection<Point> {
  const features: Feature<Point>[] = [];
  for (const group of groups) {
    for (const point of group.points) {
      features.push({
        type: 'Feature',
        properties: { id: point.id, group: group.id, color: group.color, pin: group.symbol === 'pin' },
        geometry: { type: 'Point', coordinates: [point.lng, point.lat] },
      });
    }
  }
  return { type: 'FeatureCollection', features };
}

export function PointLayers({ groups }: { groups: readonly PointGroup[] }) {
  const theme = useTheme();
  const data = useMemo(() => toFeatures(groups), [groups]);
  const halo = theme.palette.background.paper;
  return (
    <Source id={SOURCE} type="geojson" data={data} cluster clusterRadius={CLUSTER_RADIUS} clusterMaxZoom={CLUSTER_MAX_ZOOM}>
      <Layer
        id={CLUSTERS}
        type="circle"
        filter={['has', 'point_count']}
        paint={{
          'circle-color': theme.palette.mode === 'dark' ? '#90a4ae' : '#455a64',
          'circle-radius': ['step', ['get', 'point_count'], 14, 50, 18, 500, 23, 5000, 28],
          'circle-stroke-color': halo,
          'circle-stroke-width': 2,
          'circle-opacity': 0.9,
        }}
      />
      <Layer
        id={CLUSTER_COUNTS}
        type="symbol"
        filter={['has', 'point_count']}
        layout={{ 'text-field': ['get', 'point_count_abbreviated'], 'text-font': ['sans-serif'], 'text-size': 12, 'text-allow-overlap': true }}
        paint={{ 'text-color': theme.palette.mode === 'dark' ? '#000000' : '#ffffff' }}
      />
      <Layer
        id={CIRCLES}
        type="circle"
        filter={['all', ['!', ['has', 'point_count']], ['!', ['get', 'pin']]]}
        paint={{ 'circle-color': ['get', 'color'], 'circle-radius': 7, 'circle-stroke-color': halo, 'circle-stroke-width': 2 }}
      />
      <Layer
        id={PINS}
        type="symbol"
        filter={['all', ['!', ['has', 'point_count']], ['get', 'pin']]}
        layout={{ 'icon-image': ['concat', PIN_PREFIX, ['get', 'color']], 'icon-anchor': 'bottom', 'icon-allow-overlap': true }}
      />
    </Source>
  );
}

/** Draws the pin image `id` ('icrs-pin-#7b1fa2') when the style asks for it (on first use and
 * after every style change): a map pin in the colour its name carries, white-ringed. */
export function showPinImage(map: MaplibreMap, id: string): void {
  if (!id.startsWith(PIN_PREFIX) || map.hasImage(id)) return;
  const ratio = 2;
  const [width, height] = [22 * ratio, 30 * ratio];
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.scale(ratio, ratio);
  const pin = new Path2D('M11 29 C11 29 2 17.5 2 11 A9 9 0 0 1 20 11 C20 17.5 11 29 11 29 Z');
  ctx.fillStyle = id.slice(PIN_PREFIX.length);
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 2;
  ctx.fill(pin);
  ctx.stroke(pin);
  ctx.beginPath();
  ctx.arc(11, 11, 3.5, 0, Math.PI * 2);
  ctx.fillStyle = '#ffffff';
  ctx.fill();
  map.addImage(id, ctx.getImageData(0, 0, width, height), { pixelRatio: ratio });
}

/** A click on a cluster zooms in until it opens; true when `feature` was one. */
export function clusterClicked(map: MaplibreMap, feature: MapGeoJSONFeature): boolean {
  const clusterId = feature.properties?.cluster_id as number | undefined;
  if (clusterId === undefined || feature.geometry.type !== 'Point') return false;
  const [lng, lat] = feature.geometry.coordinates as [number, number];
  const source = map.getSource<GeoJSONSource>(SOURCE);
  void source
    ?.getClusterExpansionZoom(clusterId)
    .then((zoom) => map.easeTo({ center: [lng, lat], zoom }))
    .catch((error: unknown) => console.warn('Cluster did not open:', error));
  return true;
}

/** The point (and its group) a click hit, if the feature is one of ours. */
export function pointClicked(feature: MapGeoJSONFeature, groups: readonly PointGroup[]): { point: MapPoint; group: PointGroup } | null {
  const { id, group: groupId } = (feature.properties ?? {}) as { id?: string; group?: string };
  const group = groups.find((g) => g.id === groupId);
  const point = group?.points.find((p) => p.id === id);
  return group && point ? { point, group } : null;
}
