// The bundled base map (ADR-0031): the default style fetches nothing from another host (no
// glyph or sprite server, its only URL the app's own base layer), and the base layer holds the
// DR Congo with North Kivu, its neighbours, lakes and the programme's towns.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { baseStyle, mapStyle, territoryPoints } from '../../src/components/map/mapStyle';

const lists = {
  territory: [
    { id: 1, fr: 'Goma', en: 'Goma', active: true, lat: -1.6792, lng: 29.2228 },
    { id: 2, fr: 'Ancien', en: 'Former', active: false, lat: -1, lng: 29 },
    { id: 3, fr: 'Sans position', en: 'No position', active: true },
  ],
};

describe('map style', () => {
  it('draws the bundled base layer by default, with nothing from another host', () => {
    const style = mapStyle(false, territoryPoints(null, 'fr'));
    expect(typeof style).toBe('object');
    const spec = style as ReturnType<typeof baseStyle>;
    expect(spec.glyphs).toBeUndefined();
    expect(spec.sprite).toBeUndefined();
    const urls = JSON.stringify(spec).match(/https?:\/\/[^"]+/g) ?? [];
    // The base layer's address (same origin as the app) and the credit link, nothing else.
    expect(urls.filter((url) => !url.includes('/map/basemap.json') && !url.startsWith('https://www.amcharts.com/'))).toEqual([]);
    expect(spec.layers.map((layer) => layer.id)).toEqual(
      expect.arrayContaining(['countries', 'provinces', 'lakes', 'towns', 'town-names', 'territories']),
    );
  });

  it('follows the theme', () => {
    const light = baseStyle(false, territoryPoints(null, 'fr'));
    const dark = baseStyle(true, territoryPoints(null, 'fr'));
    expect(light.layers[0]).not.toEqual(dark.layers[0]);
  });

  it("places the active territories that have coordinates, named in the user's language", () => {
    const points = territoryPoints(lists as never, 'en');
    expect(points.features).toEqual([
      { type: 'Feature', properties: { name: 'Goma' }, geometry: { type: 'Point', coordinates: [29.2228, -1.6792] } },
    ]);
  });

  it('ships the DR Congo, North Kivu, the neighbours, the lakes and the main towns', () => {
    const base = JSON.parse(readFileSync('public/map/basemap.json', 'utf8')) as { features: { properties: Record<string, unknown> }[] };
    const of = (kind: string) => base.features.filter((f) => f.properties.kind === kind).map((f) => f.properties);
    expect(of('country').find((c) => c.focus)?.name).toBe('Dem. Rep. Congo');
    expect(of('country').map((c) => c.name)).toEqual(expect.arrayContaining(['Rwanda', 'Uganda', 'Burundi']));
    expect(of('province')).toHaveLength(26);
    expect(of('province').map((p) => p.code)).toContain('CD-NK');
    expect(of('lake').length).toBeGreaterThan(3);
    expect(of('town').map((t) => t.name)).toEqual(expect.arrayContaining(['Goma', 'Butembo', 'Beni', 'Kinshasa']));
  });
});
