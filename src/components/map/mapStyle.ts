// The one place the map's look comes from. Field devices may be offline and tests reach no
// external service, so nothing here is fetched at import: `VITE_MAP_STYLE_URL` (a MapLibre
// style URL, e.g. a self-hosted tile server) wins; without it, OpenStreetMap's raster tiles.
import type { StyleSpecification } from 'maplibre-gl';

/** A MapLibre style URL set at build time; undefined means the built-in OSM raster style. */
export const MAP_STYLE_URL: string | undefined = (import.meta.env.VITE_MAP_STYLE_URL as string | undefined) || undefined;

export const OSM_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** OpenStreetMap's standard tiles. Their usage policy asks for the attribution below and for
 * light use: a deployment with many users sets VITE_MAP_STYLE_URL to its own tile service. */
export const OSM_RASTER_STYLE: StyleSpecification = {
  version: 8,
  sources: {
    osm: {
      type: 'raster',
      tiles: [OSM_TILES],
      tileSize: 256,
      maxzoom: 19,
      attribution: '© <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener">OpenStreetMap</a> contributors',
    },
  },
  layers: [{ id: 'osm', type: 'raster', source: 'osm' }],
};

export function mapStyle(): string | StyleSpecification {
  return MAP_STYLE_URL ?? OSM_RASTER_STYLE;
}
