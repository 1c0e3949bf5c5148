// The one place the map's look comes from. Field devices may be offline and the app must reach
// no outside service, so the default style draws a base layer shipped with the app
// (public/map/basemap.json: countries, the DR Congo's provinces, lakes and main towns, made by
// scripts/basemap/build-basemap.mjs) and the territory centres of the lookup list, as GL
// layers. Labels need no glyph server: without a style `glyphs` URL MapLibre draws text with
// the device's own fonts. `VITE_MAP_STYLE_URL` (a MapLibre style URL, e.g. an organisation's
// tile server) replaces it.
import type { FeatureCollection } from 'geojson';
import type { ExpressionSpecification, StyleSpecification } from 'maplibre-gl';
import type { LookupLists } from '../../lib/data';
import { isLatLng } from './coords';

/** A MapLibre style URL set at build time; undefined means the bundled base layer. */
export const MAP_STYLE_URL: string | undefined = (import.meta.env.VITE_MAP_STYLE_URL as string | undefined) || undefined;

/** Where the build serves the base layer (public/map/basemap.json), absolute: MapLibre fetches
 * it from its worker, whose own address is under /assets/. */
export function basemapUrl(): string {
  return new URL(`${import.meta.env.BASE_URL}map/basemap.json`, globalThis.location?.href ?? 'http://localhost/').href;
}

const ATTRIBUTION = 'Natural Earth · provinces © <a href="https://www.amcharts.com/" target="_blank" rel="noopener">amCharts</a>';

/** Label font: the device's sans-serif (MapLibre draws it locally when the style has no glyphs). */
const FONT = ['sans-serif'];

interface Palette {
  water: string;
  land: string;
  focus: string;
  border: string;
  province: string;
  highlight: string;
  text: string;
  halo: string;
  town: string;
  territory: string;
}

const LIGHT: Palette = {
  water: '#b9d7ea',
  land: '#eceae4',
  focus: '#fbfaf6',
  border: '#6b6b6b',
  province: '#9a8f86',
  highlight: '#f3e3c3',
  text: '#2b2b2b',
  halo: '#ffffff',
  town: '#3d3d3d',
  territory: '#8a4b00',
};

const DARK: Palette = {
  water: '#1d2d3a',
  land: '#262626',
  focus: '#333333',
  border: '#a0a0a0',
  province: '#7c746c',
  highlight: '#4a3f2c',
  text: '#eeeeee',
  halo: '#121212',
  town: '#dddddd',
  territory: '#ffb74d',
};

/** North Kivu, the programme's province, is tinted. */
const PROGRAMME_PROVINCE = 'CD-NK';

const is = (kind: string): ExpressionSpecification => ['==', ['get', 'kind'], kind];

/** Territory centres of the lookup list (the base layer has no territory boundaries). */
export function territoryPoints(lists: LookupLists | null, lang: 'fr' | 'en'): FeatureCollection {
  const items = (lists?.territory ?? []).filter((item) => item.active !== false && isLatLng(item));
  return {
    type: 'FeatureCollection',
    features: items.map((item) => ({
      type: 'Feature',
      properties: { name: item[lang] || item.fr || item.en },
      geometry: { type: 'Point', coordinates: [item.lng as number, item.lat as number] },
    })),
  };
}

/** The bundled base layer as a MapLibre style, in the app's theme. */
export function baseStyle(dark: boolean, territories: FeatureCollection): StyleSpecification {
  const c = dark ? DARK : LIGHT;
  return {
    version: 8,
    sources: {
      base: { type: 'geojson', data: basemapUrl(), attribution: ATTRIBUTION },
      territories: { type: 'geojson', data: territories },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': c.water } },
      {
        id: 'countries',
        type: 'fill',
        source: 'base',
        filter: is('country'),
        paint: { 'fill-color': ['case', ['get', 'focus'], c.focus, c.land] },
      },
      {
        id: 'programme-province',
        type: 'fill',
        source: 'base',
        filter: ['all', is('province'), ['==', ['get', 'code'], PROGRAMME_PROVINCE]],
        paint: { 'fill-color': c.highlight },
      },
      { id: 'lakes', type: 'fill', source: 'base', filter: is('lake'), paint: { 'fill-color': c.water } },
      {
        id: 'provinces',
        type: 'line',
        source: 'base',
        filter: is('province'),
        paint: { 'line-color': c.province, 'line-width': 1, 'line-dasharray': [3, 2] },
      },
      { id: 'borders', type: 'line', source: 'base', filter: is('country'), paint: { 'line-color': c.border, 'line-width': 1.4 } },
      {
        id: 'province-names',
        type: 'symbol',
        source: 'base',
        filter: is('province'),
        minzoom: 5,
        maxzoom: 9,
        layout: {
          'text-field': ['get', 'name'],
          'text-font': FONT,
          'text-size': 12,
          'text-transform': 'uppercase',
          'text-letter-spacing': 0.1,
        },
        paint: { 'text-color': c.province, 'text-halo-color': c.halo, 'text-halo-width': 1.2 },
      },
      {
        id: 'territories',
        type: 'circle',
        source: 'territories',
        minzoom: 6,
        paint: { 'circle-radius': 3, 'circle-color': c.territory, 'circle-stroke-color': c.halo, 'circle-stroke-width': 1 },
      },
      {
        id: 'territory-names',
        type: 'symbol',
        source: 'territories',
        minzoom: 6,
        layout: {
          'text-field': ['get', 'name'],
          'text-font': FONT,
          'text-size': 12,
          'text-offset': [0, 1],
          'text-anchor': 'top',
          'text-optional': true,
        },
        paint: { 'text-color': c.territory, 'text-halo-color': c.halo, 'text-halo-width': 1.2 },
      },
      {
        id: 'towns',
        type: 'circle',
        source: 'base',
        filter: ['all', is('town'), ['any', ['==', ['get', 'rank'], 1], ['>=', ['zoom'], 7]]],
        paint: { 'circle-radius': 2.5, 'circle-color': c.town },
      },
      {
        id: 'town-names',
        type: 'symbol',
        source: 'base',
        filter: ['all', is('town'), ['any', ['==', ['get', 'rank'], 1], ['>=', ['zoom'], 7]]],
        layout: {
          'text-field': ['get', 'name'],
          'text-font': FONT,
          'text-size': 13,
          'text-offset': [0, -0.9],
          'text-anchor': 'bottom',
          'text-optional': true,
        },
        paint: { 'text-color': c.text, 'text-halo-color': c.halo, 'text-halo-width': 1.4 },
      },
    ],
  };
}

/** The style maps draw: the organisation's when one is set, else the bundled base layer. */
export function mapStyle(dark = false, territories: FeatureCollection = territoryPoints(null, 'fr')): string | StyleSpecification {
  return MAP_STYLE_URL ?? baseStyle(dark, territories);
}
