// Many points on a map as GL layers (ADR-0031): one clustered GeoJSON source (and the server's
// clusters when it sends those instead of points), circles in each
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
  /** Name shown by the default info window (the dashboard's fetches its own). */
  title?: string;
  address?: string | null;
}

/** Markers the server gathered (too many to send one by one): a count at their average position. */
export interface CountedCluster extends LatLng {
  count: number;
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
const SERVER_SOURCE = 'icrs-server-clusters';
const SERVER_CLUSTERS = 'icrs-server-clusters';
const SERVER_CLUSTER_COUNTS = 'icrs-server-cluster-counts';

/** The layers a click or a hover answers on. */
export const POINT_LAYER_IDS = [CLUSTERS, CIRCLES, PINS, SERVER_CLUSTERS];

/** A click on a server cluster zooms in by this much: the map then asks for the new view. */
const SERVER_CLUSTER_ZOOM_STEP = 2;

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

function toClusterFeatures(clusters: readonly CountedCluster[]): FeatureCollection<Point> {
  return {
    type: 'FeatureCollection',
    features: clusters.map((c) => ({
      type: 'Feature',
      properties: { point_count: c.count, point_count_abbreviated: abbreviated(c.count), server: true },
      geometry: { type: 'Point', coordinates: [c.lng, c.lat] },
    })),
  };
}

/** A cluster's count as MapLibre abbreviates its own (1.2k, 35k). */
function abbreviated(count: number): string {
  if (count < 1000) return String(count);
  return count < 10000 ? `${(count / 1000).toFixed(1).replace(/\.0$/, '')}k` : `${Math.round(count / 1000)}k`;
}

/** Cluster circles and their counts, the same for MapLibre's clusters and the server's. */
function ClusterLayers({ ids, source }: { ids: [circles: string, counts: string]; source: string }) {
  const theme = useTheme();
  const dark = theme.palette.mode === 'dark';
  return (
    <>
      <Layer
        id={ids[0]}
        source={source}
        type="circle"
        filter={['has', 'point_count']}
        paint={{
          'circle-color': dark ? '#90a4ae' : '#455a64',
          'circle-radius': ['step', ['get', 'point_count'], 14, 50, 18, 500, 23, 5000, 28],
          'circle-stroke-color': theme.palette.background.paper,
          'circle-stroke-width': 2,
          'circle-opacity': 0.9,
        }}
      />
      <Layer
        id={ids[1]}
        source={source}
        type="symbol"
        filter={['has', 'point_count']}
        layout={{
          'text-field': ['get', 'point_count_abbreviated'],
          'text-font': ['sans-serif'],
          'text-size': 12,
          'text-allow-overlap': true,
        }}
        paint={{ 'text-color': dark ? '#000000' : '#ffffff' }}
      />
    </>
  );
}

/** The server's clusters (a map with more markers than it sends one by one). */
export function ServerClusterLayers({ clusters }: { clusters: readonly CountedCluster[] }) {
  const data = useMemo(() => toClusterFeatures(clusters), [clusters]);
  return (
    <Source id={SERVER_SOURCE} type="geojson" data={data}>
      <ClusterLayers ids={[SERVER_CLUSTERS, SERVER_CLUSTER_COUNTS]} source={SERVER_SOURCE} />
    </Source>
  );
}

export function PointLayers({ groups }: { groups: readonly PointGroup[] }) {
  const theme = useTheme();
  const data = useMemo(() => toFeatures(groups), [groups]);
  const halo = theme.palette.background.paper;
  return (
    <Source id={SOURCE} type="geojson" data={data} cluster clusterRadius={CLUSTER_RADIUS} clusterMaxZoom={CLUSTER_MAX_ZOOM}>
      <ClusterLayers ids={[CLUSTERS, CLUSTER_COUNTS]} source={SOURCE} />
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
  if (feature.geometry.type !== 'Point') return false;
  const [lng, lat] = feature.geometry.coordinates as [number, number];
  if (feature.properties?.server) {
    map.easeTo({ center: [lng, lat], zoom: map.getZoom() + SERVER_CLUSTER_ZOOM_STEP });
    return true;
  }
  const clusterId = feature.properties?.cluster_id as number | undefined;
  if (clusterId === undefined) return false;
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
