// The floor under the dashboard map's start (ADR-0031): MapLibre alone in headless Chromium,
// without the app. A page that only loads MapLibre's module and makes one map of the same size
// as the dashboard's, with styles growing step by step:
// - background: one background layer, no source (MapLibre's own start: WebGL context, shaders,
//   the first frame);
// - polygon: one GeoJSON source of a single triangle, filled (what any data costs: MapLibre's
//   worker, its tiling, the frames until idle);
// - base: the bundled base layer's fills and lines (public/map/basemap.json);
// - labels: the same plus town and province names (drawn with the device's fonts);
// - points: the same plus 10,000 clustered points, as the dashboard draws them.
// Prints, per style, the median of BENCH_RUNS (default 5) page loads: from navigation until the
// module is evaluated (`module`), until the map's `load` event and until it is first `idle`
// (all tiles drawn, nothing moving), and the frames drawn until then.
//
//   npx tsx bench/map-floor.bench.ts
//
// What the app's map cannot beat on the same machine: the dashboard map's aim (≤ 1.5 s from
// opening the dashboard until it is interactive) includes this, plus the app's start-up and
// the dashboard's figures (docs/performance.md "The map with 10,000 markers").
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../test/helpers/browser';
import { median } from './median';
import { withResults } from './results';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const STYLES = ['background', 'polygon', 'base', 'labels', 'points'] as const;
const MAPLIBRE = path.resolve('node_modules/maplibre-gl/dist');
const FILES: Record<string, string> = {
  '/maplibre-gl.mjs': path.join(MAPLIBRE, 'maplibre-gl.mjs'),
  '/maplibre-gl-shared.mjs': path.join(MAPLIBRE, 'maplibre-gl-shared.mjs'),
  '/maplibre-gl-worker.mjs': path.join(MAPLIBRE, 'maplibre-gl-worker.mjs'),
  '/maplibre-gl.css': path.join(MAPLIBRE, 'maplibre-gl.css'),
  '/basemap.json': path.resolve('public/map/basemap.json'),
};

// The page: which style comes from the query string; `window.result` when the map is idle.
const PAGE = `<!doctype html><html><head><link rel="stylesheet" href="/maplibre-gl.css">
<style>body{margin:0}#map{width:1000px;height:420px}</style></head><body><div id="map"></div>
<script type="module">
const started = performance.now();
const maplibregl = await import('/maplibre-gl.mjs');
const evaluated = performance.now();
maplibregl.setWorkerUrl(location.origin + '/maplibre-gl-worker.mjs');
const style = new URLSearchParams(location.search).get('style');
const kind = (k) => ['==', ['get', 'kind'], k];
const sources = {};
const layers = [{ id: 'water', type: 'background', paint: { 'background-color': '#b9d7ea' } }];
if (style === 'polygon') {
  const triangle = { type: 'Polygon', coordinates: [[[28, -2], [30, -2], [30, 0], [28, -2]]] };
  sources.polygon = { type: 'geojson', data: { type: 'Feature', properties: {}, geometry: triangle } };
  layers.push({ id: 'polygon', type: 'fill', source: 'polygon', paint: { 'fill-color': '#eceae4' } });
} else if (style !== 'background') {
  sources.base = { type: 'geojson', data: location.origin + '/basemap.json' };
  layers.push(
    { id: 'countries', type: 'fill', source: 'base', filter: kind('country'), paint: { 'fill-color': '#eceae4' } },
    { id: 'lakes', type: 'fill', source: 'base', filter: kind('lake'), paint: { 'fill-color': '#b9d7ea' } },
    { id: 'provinces', type: 'line', source: 'base', filter: kind('province'), paint: { 'line-color': '#9a8f86', 'line-dasharray': [3, 2] } },
    { id: 'borders', type: 'line', source: 'base', filter: kind('country'), paint: { 'line-color': '#6b6b6b', 'line-width': 1.4 } },
  );
}
if (style === 'labels' || style === 'points') {
  const label = (id, k, size) => ({ id, type: 'symbol', source: 'base', filter: kind(k),
    layout: { 'text-field': ['get', 'name'], 'text-font': ['sans-serif'], 'text-size': size },
    paint: { 'text-color': '#2b2b2b', 'text-halo-color': '#ffffff', 'text-halo-width': 1.4 } });
  layers.push(label('towns', 'town', 13), label('provinces-names', 'province', 12));
}
if (style === 'points') {
  const features = Array.from({ length: 10000 }, (_, i) => ({ type: 'Feature', properties: { group: i % 5 },
    geometry: { type: 'Point', coordinates: [28.2 + ((i * 7919) % 2000) / 1000, -1.8 + ((i * 104729) % 2000) / 1000] } }));
  sources.points = { type: 'geojson', data: { type: 'FeatureCollection', features }, cluster: true, clusterRadius: 50 };
  layers.push(
    { id: 'clusters', type: 'circle', source: 'points', filter: ['has', 'point_count'], paint: { 'circle-radius': 14, 'circle-color': '#1976d2' } },
    { id: 'counts', type: 'symbol', source: 'points', filter: ['has', 'point_count'], layout: { 'text-field': ['get', 'point_count_abbreviated'], 'text-font': ['sans-serif'], 'text-size': 12 } },
    { id: 'single', type: 'circle', source: 'points', filter: ['!', ['has', 'point_count']], paint: { 'circle-radius': 5, 'circle-color': '#2e7d32' } },
  );
}
let frames = 0;
const map = new maplibregl.Map({ container: 'map', style: { version: 8, sources, layers }, center: [29.2, -0.8], zoom: 7.5 });
map.on('render', () => frames++);
let loaded = 0;
map.once('load', () => (loaded = performance.now()));
map.once('idle', () => (window.result = { started, module: evaluated, load: loaded, idle: performance.now(), frames }));
</script></body></html>`;

async function main() {
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const file = FILES[url.pathname];
    if (url.pathname === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (!file) return response.writeHead(404).end();
    const type = file.endsWith('.css') ? 'text/css' : file.endsWith('.json') ? 'application/json' : 'text/javascript';
    response.writeHead(200, { 'content-type': type, 'cache-control': 'max-age=3600' }).end(await readFile(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchBrowser();
  const loadBefore = loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  const figures: Record<string, { module: number[]; load: number[]; idle: number[]; frames: number[] }> = {};
  try {
    // The styles in turn within each run, so drift in the machine's load hits them alike.
    for (let run = 0; run < RUNS; run++) {
      for (const style of STYLES) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        await page.goto(`${base}/?style=${style}`);
        await page.waitForFunction('window.result', null, { timeout: 60_000, polling: 20 });
        const r = (await page.evaluate('window.result')) as { module: number; load: number; idle: number; frames: number };
        const f = (figures[style] ??= { module: [], load: [], idle: [], frames: [] });
        f.module.push(r.module);
        f.load.push(r.load);
        f.idle.push(r.idle);
        f.frames.push(r.frames);
        await page.close();
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log(
    `# map_floor: MapLibre alone in headless Chromium, a 1000×420 map at zoom 7.5, median of ${RUNS} page loads; load average ${loadBefore} → ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  for (const style of STYLES) {
    const f = figures[style];
    if (!f) continue;
    console.log(`map_floor.${style}_module_ms: ${median(f.module).toFixed(0)} ms`);
    console.log(`map_floor.${style}_load_ms: ${median(f.load).toFixed(0)} ms`);
    console.log(`map_floor.${style}_idle_ms: ${median(f.idle).toFixed(0)} ms (${median(f.frames)} frames)`);
  }
}

await withResults('map-floor', main);
