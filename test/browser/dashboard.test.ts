// The dashboard (ADR-0031) on the demo data: tiles and charts by role (1, 2, 6, 7), chart values
// equal to the API's figures with bars 20 px thick, the map drawn from the bundled base layer
// with every request to another host refused, its markers and group toggles, the info window
// with and without an address, the figures refreshed by the change stream, axe in both
// themes on a desktop and at 360 px; the markers reached by keyboard through the list of the
// markers in view; and the server's clusters (a server whose points limit is low).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedDemo } from '../../server/seed/demo';
import { seriousViolations } from '../helpers/axe';
import { launchBrowser, newPage, settle, signIn, type TestPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

let t: TestServer;
let browser: Browser;
let adminToken: string;

const users = {
  2: { userName: 'dash2', password: 'dash-password-2', role: 2, location: 0 },
  6: { userName: 'dash6', password: 'dash-password-6', role: 6, location: 1 },
  7: { userName: 'dash7', password: 'dash-password-7', role: 7, location: 1 },
} as const;

interface Place {
  id: string;
  name?: string;
  title?: string;
  address: string | null;
  lat: number;
  lng: number;
  sp_type?: number;
}

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await seedDemo(t.server.db, { scale: 1, seed: 13 });
  for (const user of Object.values(users)) await t.createUser(user);
  adminToken = await t.login(t.admin.userName, t.admin.password);
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Every request to a host other than the test server is refused and recorded. */
async function blockOutsideHosts(context: BrowserContext): Promise<string[]> {
  const outside: string[] = [];
  const own = new URL(t.url).host;
  await context.route(
    (url) => url.host !== own && !url.protocol.startsWith('data') && !url.protocol.startsWith('blob'),
    (route) => {
      outside.push(route.request().url());
      return route.abort();
    },
  );
  return outside;
}

async function signedIn(
  user: { userName: string; password: string },
  options: { lang?: 'en' | 'fr'; width?: number; dark?: boolean } = {},
): Promise<TestPage & { outside: string[] }> {
  const opened = await newPage(browser, {
    baseURL: t.url,
    lang: options.lang ?? 'en',
    viewport: { width: options.width ?? 1280, height: 900 },
  });
  if (options.dark) await opened.context.addInitScript(() => localStorage.setItem('theme', 'dark'));
  const outside = await blockOutsideHosts(opened.context);
  await signIn(opened.page, user.userName, user.password);
  await opened.page.getByTestId('fetched-at').filter({ hasText: /\d/ }).waitFor();
  return { ...opened, outside };
}

async function apiGet<T>(path: string, token = adminToken): Promise<T> {
  const { status, body } = await t.api('GET', path, { token });
  expect(status, path).toBe(200);
  return body as T;
}

/** The values written beside the bars, top to bottom, and the category labels of the axis. */
async function chartShown(page: Page, chart: string): Promise<{ values: number[]; labels: string[] }> {
  const root = page.getByTestId(`chart-${chart}`);
  // A chart far below the first screen is drawn when scrolled to (ADR-0035).
  await root.scrollIntoViewIfNeeded();
  await root.locator('.MuiBarChart-label').first().waitFor();
  const values = (await root.locator('.MuiBarChart-label').allTextContents()).map((v) => Number(v.replace(/\D/g, '')));
  const ticks = await root.locator('.MuiChartsAxis-tickLabel').allTextContents();
  return { values, labels: ticks.slice(-values.length) };
}

/** Scrolls to the dashboard's map: it starts only once on or near the screen (ADR-0035). */
async function scrollToMap(page: Page): Promise<void> {
  // In one step in the page: the placeholder inside is replaced by the map as it starts.
  await page.getByTestId('dashboard-map').evaluate((element) => element.scrollIntoView({ block: 'center' }));
}

/** Scrolls to the map and resolves once it has loaded and stopped moving. */
async function mapAtRest(page: Page): Promise<void> {
  await scrollToMap(page);
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid="dashboard-map"] .maplibregl-map') as
      (HTMLElement & { maplibreMap?: { loaded(): boolean; isMoving(): boolean } }) | null;
    return c?.maplibreMap?.loaded() === true && !c.maplibreMap.isMoving();
  });
}

/** Runs `fn` with the page's MapLibre map (MapCanvas puts it on its container). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the map's API inside the page
function onMap<R, A>(page: Page, fn: (map: any, arg: A) => R, arg: A): Promise<R> {
  return page.evaluate(
    ({ source, value }) => {
      const container = document.querySelector('[data-testid="dashboard-map"] .maplibregl-map') as HTMLElement & { maplibreMap: unknown };
      return new Function('map', 'arg', `return (${source})(map, arg)`)(container.maplibreMap, value);
    },
    { source: fn.toString(), value: arg },
  ) as Promise<R>;
}

/** Centres the map on `place` close enough that no cluster hides it, then clicks it. */
async function clickPlace(page: Page, place: Place): Promise<void> {
  await onMap(page, (map, p: Place) => map.jumpTo({ center: [p.lng, p.lat], zoom: 17 }), place);
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid="dashboard-map"] .maplibregl-map') as HTMLElement & {
      maplibreMap: { loaded(): boolean; isMoving(): boolean };
    };
    return c.maplibreMap.loaded() && !c.maplibreMap.isMoving();
  });
  const canvas = page.locator('[data-testid="dashboard-map"] canvas.maplibregl-canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error('no map canvas');
  // Pins stand on their point: click a little above it.
  const lift = place.title ? 12 : 0;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2 - lift);
}

describe('dashboard', () => {
  it('shows the API figures in tiles and charts, 20 px bars, labels in English (role 1)', async () => {
    const { context, page, outside } = await signedIn({ userName: t.admin.userName, password: t.admin.password });
    const gen = await apiGet<Record<string, number>>('/stats/gen');
    await poll(() => page.getByTestId('tile-services-count').textContent()).toBe(String(gen.services));
    expect(await page.getByTestId('tile-jobs-count').textContent()).toBe(String(gen.jobs));
    expect(await page.getByTestId('tile-clients-count').textContent()).toBe(String(gen.profiles));
    expect(await page.getByTestId('tile-referrals-count').textContent()).toBe(String(gen.referrals));

    // On a desktop screen the four charts are near enough to be drawn without scrolling.
    for (const chart of ['byCategory', 'byTerritory', 'byServiceType', 'jobsBySector']) {
      await page.getByTestId(`chart-${chart}`).locator('.MuiBarChart-label').first().waitFor();
    }
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    const lists = await apiGet<Record<string, { id: number; en: string }[]>>('/lists/profilelist');
    const items = (key: string) => lists[key] ?? [];
    const charts = [
      ['byCategory', '/stats/byspdtype', 'category'],
      ['byTerritory', '/stats/bySpdTerr', 'territory'],
      ['byServiceType', '/stats/byServiceType', 'serviceType'],
      ['jobsBySector', '/stats/getJbSec/', 'sector'],
    ] as const;
    for (const [chart, path, list] of charts) {
      const counts = await apiGet<{ id: number; count: number }[]>(path);
      const shown = await chartShown(page, chart);
      expect(shown.values, chart).toEqual(counts.map((c) => c.count));
      const names = counts.map((c) => items(list).find((i) => i.id === c.id)?.en ?? `#${c.id}`);
      shown.labels.forEach((label, i) => expect(names[i]?.startsWith(label.replace(/…$/, '')), `${chart}: ${label}`).toBe(true));
    }
    const heights = await page
      .getByTestId('chart-byCategory')
      .locator('.MuiBarChart-element')
      .evaluateAll((bars) => bars.map((b) => Math.round(b.getBoundingClientRect().height)));
    expect(heights.length).toBeGreaterThan(0);
    for (const height of heights) expect(height).toBe(20);

    // The map: drawn from the bundled base layer, no request left for another host.
    // The whole map: a few markers, so one by one ([id, lng, lat, group 0 job / 1-4 sp_type]);
    // their names and addresses come from /stats/geo/places (the info window asks there too).
    const markers = await apiGet<{ counts: number[]; points: [string, number, number, number][] }>('/stats/geo');
    const ids = (jobs: boolean) =>
      markers.points
        .filter((p) => (p[3] === 0) === jobs)
        .map((p) => p[0])
        .join(',');
    const geo = await apiGet<{ latlangs: Place[]; jbLatlangs: Place[] }>(`/stats/geo/places?providers=${ids(false)}&jobs=${ids(true)}`);
    expect(geo.latlangs.length + geo.jbLatlangs.length).toBe(markers.points.length);
    await poll(() => page.getByTestId('map-header').textContent()).toBe(
      `${geo.latlangs.length} Services, ${geo.jbLatlangs.length} Available Jobs with geo location data`,
    );
    await page.getByText('Click icon to remove from the Map').waitFor();
    const region = page.getByRole('region', { name: 'Map of services and available jobs' });
    await scrollToMap(page);
    await poll(() => region.getAttribute('data-points')).toBe(String(geo.latlangs.length + geo.jbLatlangs.length));
    await page.waitForFunction(() => {
      const c = document.querySelector('[data-testid="dashboard-map"] .maplibregl-map') as
        (HTMLElement & { maplibreMap?: { loaded(): boolean } }) | null;
      return c?.maplibreMap?.loaded() === true;
    });
    const drawn = await onMap(
      page,
      (map) => ({
        countries: map.queryRenderedFeatures({ layers: ['countries'] }).length,
        towns: map.queryRenderedFeatures({ layers: ['towns'] }).length,
        markers: map.queryRenderedFeatures({ layers: ['icrs-point-clusters', 'icrs-point-circles', 'icrs-point-pins'] }).length,
        zoom: map.getZoom(),
      }),
      null,
    );
    expect(drawn.countries).toBeGreaterThan(0);
    expect(drawn.towns).toBeGreaterThan(0);
    expect(drawn.markers).toBeGreaterThan(0);
    expect(drawn.zoom).toBe(7.5);
    // Centred on the markers' average position (product.md §2).
    const all = [...geo.latlangs, ...geo.jbLatlangs];
    const centre = await onMap(page, (map) => map.getCenter().toArray() as [number, number], null);
    expect(centre[0]).toBeCloseTo(all.reduce((sum, p) => sum + p.lng, 0) / all.length, 4);
    expect(centre[1]).toBeCloseTo(all.reduce((sum, p) => sum + p.lat, 0) / all.length, 4);

    // A cluster opens on click: the map zooms in on it.
    await page.locator('[data-testid="dashboard-map"] canvas.maplibregl-canvas').scrollIntoViewIfNeeded();
    const cluster = await onMap(
      page,
      (map) => {
        const feature = map.queryRenderedFeatures({ layers: ['icrs-point-clusters'] })[0];
        if (!feature) return null;
        const point = map.project(feature.geometry.coordinates);
        const rect = map.getCanvas().getBoundingClientRect();
        return { x: rect.left + point.x, y: rect.top + point.y };
      },
      null,
    );
    expect(cluster, 'a cluster on the first view').not.toBeNull();
    await page.mouse.click((cluster as { x: number }).x, (cluster as { y: number }).y);
    await poll(() => onMap(page, (map) => map.getZoom() as number, null)).toBeGreaterThan(7.5);

    // Legend toggles take a group off the map and put it back.
    const jobs = page.getByTestId('legend-jobs');
    await jobs.click();
    await poll(() => jobs.getAttribute('aria-pressed')).toBe('false');
    await poll(() => region.getAttribute('data-points')).toBe(String(geo.latlangs.length));
    const social = geo.latlangs.filter((p) => p.sp_type === 1).length;
    await page.getByTestId('legend-social').click();
    await poll(() => region.getAttribute('data-points')).toBe(String(geo.latlangs.length - social));
    await page.getByTestId('legend-social').click();
    await jobs.click();
    await poll(() => region.getAttribute('data-points')).toBe(String(geo.latlangs.length + geo.jbLatlangs.length));

    // Info windows: name and address, or 'Upload Missing'.
    const withAddress = geo.latlangs.find((p) => p.address);
    const without = [...geo.latlangs, ...geo.jbLatlangs].find((p) => !p.address);
    expect(withAddress && without, 'the demo has both').toBeTruthy();
    await clickPlace(page, withAddress as Place);
    const popup = page.getByTestId('map-popup');
    await poll(() => popup.textContent()).toContain(withAddress?.name);
    expect(await popup.getByTestId('map-popup-address').textContent()).toBe(withAddress?.address);
    await clickPlace(page, without as Place);
    await poll(() => popup.getByTestId('map-popup-address').textContent()).toBe('Upload Missing');
    expect(await popup.textContent()).toContain((without as Place).name ?? (without as Place).title);

    // A job created elsewhere reaches the tiles and the chart through the change stream.
    const created = await t.api('POST', '/jobs/', {
      token: adminToken,
      body: { title: 'Live dashboard job', employer: 'Kivu SARL', sector: 2, territory: 1 },
    });
    expect(created.status).toBe(201);
    await poll(() => page.getByTestId('tile-jobs-count').textContent()).toBe(String(gen.jobs + 1));
    const sectors = await apiGet<{ id: number; count: number }[]>('/stats/getJbSec/');
    await poll(async () => (await chartShown(page, 'jobsBySector')).values).toEqual(sectors.map((c) => c.count));

    expect(outside).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it.each([
    [2, ['services', 'jobs', 'clients', 'referrals'], []],
    [6, ['services', 'jobs'], ['services', 'jobs']],
    [7, ['services', 'jobs', 'clients', 'referrals'], ['services', 'jobs']],
  ] as const)('shows role %i its tiles, links and the four charts', async (role, tiles, links) => {
    const user = users[role];
    const { context, page } = await signedIn(user);
    const token = await t.login(user.userName, user.password);
    const gen = await apiGet<Record<string, number>>('/stats/gen', token);
    await poll(() => page.locator('[data-testid^="tile-"][data-testid$="-count"]').count()).toBe(tiles.length);
    for (const tile of ['services', 'jobs', 'clients', 'referrals']) {
      const shown = (tiles as readonly string[]).includes(tile);
      expect(await page.getByTestId(`tile-${tile}`).count(), `role ${role} tile ${tile}`).toBe(shown ? 1 : 0);
      if (shown)
        expect(await page.getByTestId(`tile-${tile}`).getByRole('link').count(), `role ${role} link ${tile}`).toBe(
          (links as readonly string[]).includes(tile) ? 1 : 0,
        );
    }
    if ((tiles as readonly string[]).includes('clients'))
      expect(await page.getByTestId('tile-clients-count').textContent()).toBe(String(gen.profiles));
    const counts = await apiGet<{ id: number; count: number }[]>('/stats/bySpdTerr', token);
    expect((await chartShown(page, 'byTerritory')).values).toEqual(counts.map((c) => c.count));
    for (const chart of ['byCategory', 'byServiceType', 'jobsBySector']) await page.getByTestId(`chart-${chart}`).waitFor();
    await page.getByTestId('dashboard-map').waitFor();
    if (role === 7) {
      // A failing dashboard call is only logged (product.md §2): no message, the rest is drawn.
      await page.route('**/api/stats/byServiceType', (route) =>
        route.fulfill({ status: 500, json: { statusCode: 500, error: 'Internal Server Error', message: 'boom' } }),
      );
      await page.reload();
      await page.getByTestId('fetched-at').filter({ hasText: /\d/ }).waitFor();
      await chartShown(page, 'byCategory');
      expect(await page.getByTestId('chart-byServiceType').textContent()).toBe('No data for this chart yet.');
      expect(await page.getByText('boom').count()).toBe(0);
      expect(await page.locator('[data-testid="toast"], .notistack-MuiContent').count()).toBe(0);
    }
    await context.close();
  });

  it('reaches the markers by keyboard: the list of the markers in view opens info windows and clusters', async () => {
    const { context, page } = await signedIn({ userName: t.admin.userName, password: t.admin.password });
    const markers = await apiGet<{ points: [string, number, number, number][] }>('/stats/geo');
    const providerIds = markers.points
      .filter((p) => p[3] !== 0)
      .map((p) => p[0])
      .join(',');
    const geo = await apiGet<{ latlangs: Place[] }>(`/stats/geo/places?providers=${providerIds}`);
    const place = geo.latlangs.find((p) => p.address) as Place;
    await page.getByTestId('map-header').waitFor();
    await mapAtRest(page);

    // The list opens from the keyboard and names the view's markers and groups.
    const toggle = page.getByTestId('map-list-toggle');
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const clusterButtons = page.getByTestId('map-list-cluster');
    await poll(() => clusterButtons.count()).toBeGreaterThan(0);
    const listed = await clusterButtons.allTextContents();
    for (const text of listed) expect(text).toMatch(/^Group of \d+ markers?: zoom in$/);

    // A group's button zooms in on it, as a click does; the focus goes to the list's status.
    await clusterButtons.first().focus();
    await page.keyboard.press('Enter');
    await poll(() => onMap(page, (map) => map.getZoom() as number, null)).toBeGreaterThan(7.5);
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('map-list-count');

    // Close enough to one provider, its button (named from the server) opens its info window,
    // which takes the focus; Escape closes it and gives the focus back to the button.
    await onMap(page, (map, p: Place) => map.jumpTo({ center: [p.lng, p.lat], zoom: 17 }), place);
    await mapAtRest(page);
    const button = page.getByTestId('map-list-point').filter({ hasText: place.name as string });
    await poll(() => button.count()).toBe(1);
    expect(await button.textContent()).toMatch(/\((Social|Economic|Legal|Education)\)$/);
    await poll(() => page.getByTestId('map-list-count').textContent()).toMatch(/^\d+ markers? in view\.$/);
    await button.focus();
    await page.keyboard.press('Enter');
    const popup = page.getByTestId('map-popup');
    await poll(() => popup.getByTestId('map-popup-address').textContent()).toBe(place.address);
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('map-popup');
    await page.keyboard.press('Escape');
    await poll(() => popup.count()).toBe(0);
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('fits 360 px and passes axe in French, dark and light', async () => {
    for (const dark of [true, false]) {
      const { context, page, outside } = await signedIn(
        { userName: t.admin.userName, password: t.admin.password },
        { lang: 'fr', width: 360, dark },
      );
      await page.getByText('Services par catégorie').waitFor();
      await page.getByText('Cliquez sur une icône pour la retirer de la carte').waitFor();
      // On a phone the map is far below the figures: it starts when scrolled to (ADR-0035).
      await page.waitForTimeout(500);
      expect(await page.locator('[data-testid="dashboard-map"] .maplibregl-map').count(), 'map started before it was scrolled to').toBe(0);
      // So is the last chart: its place is kept, and it is drawn once scrolled to.
      const lastChart = page.getByTestId('chart-jobsBySector');
      expect(await lastChart.locator('svg').count(), 'chart drawn before it was scrolled to').toBe(0);
      const placeHeight = await lastChart.evaluate((element) => {
        element.setAttribute('data-place', 'kept');
        return element.getBoundingClientRect().height;
      });
      await scrollToMap(page); // the last chart is just above the map
      await lastChart.locator('.MuiBarChart-label').first().waitFor();
      expect(await lastChart.getAttribute('data-place'), 'the same element, drawn in its place').toBe('kept');
      expect(await lastChart.evaluate((element) => element.getBoundingClientRect().height)).toBeCloseTo(placeHeight, 0);
      await page.locator('[data-testid="dashboard-map"] canvas.maplibregl-canvas').waitFor();
      // The list of the markers in view, open, in French.
      await page.getByRole('button', { name: 'Lister les marqueurs visibles' }).click();
      await poll(() => page.getByTestId('map-list-count').textContent()).toMatch(/^\d+ marqueurs? visibles?\.$/);
      await settle(page);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, dark ? 'dark' : 'light').toBeLessThanOrEqual(360);
      expect(await seriousViolations(page), dark ? 'dark' : 'light').toEqual([]);
      expect(outside).toEqual([]);
      await context.close();
    }
  });
});

describe('dashboard map with the server clusters', () => {
  // Two places 0.7° apart: 4 markers near Sake (3 social providers and a job), 6 economic
  // providers north of it. 10 markers over a limit of 7: the whole map comes as clusters.
  const south = { lat: -1.1, lng: 29.0 };
  const north = { lat: -0.45, lng: 29.4 };
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ config: { mapPointsLimit: 7 } });
    const id = (n: number, kind: number) => `${n.toString(16).padStart(8, '0')}-0000-7000-8000-00000000000${kind}`;
    const providers = [
      ...[0, 1, 2].map((n) => ({ id: id(n + 1, 1), type: 1, ...south, lat: south.lat + n * 0.001 })),
      ...[0, 1, 2, 3, 4, 5].map((n) => ({ id: id(n + 10, 1), type: 2, ...north, lng: north.lng + n * 0.001 })),
    ];
    for (const p of providers) {
      await server.server.db.query(
        `INSERT INTO "tbl_serviceprovider" ("sp_Id", "sp_Name", "sp_type", "sp_Address", "territory", "lat", "lng", "createdAt", "updatedAt")
         VALUES ($1, $2, $3, 'Avenue 1', 1, $4, $5, now(), now())`,
        [p.id, `Provider ${p.id.slice(0, 8)}`, p.type, p.lat, p.lng],
      );
    }
    await server.server.db.query(
      `INSERT INTO "available-jobs" ("jb_Id", "title", "employer", "sector", "territory", "address", "open", "positions", "lat", "lng", "createdAt", "updatedAt")
       VALUES ($1, 'Job near Sake', 'Employer', 1, 1, 'Rue 1', true, 1, $2, $3, now(), now())`,
      [id(1, 3), south.lat - 0.001, south.lng],
    );
  });

  afterAll(async () => {
    await server?.close();
  });

  /** The server clusters drawn on the map, as [count, lat] sorted by count. */
  async function drawnClusters(page: Page): Promise<[number, number][]> {
    return onMap(
      page,
      (map) => {
        const features = map.queryRenderedFeatures({ layers: ['icrs-server-clusters'] }) as {
          properties: { point_count: number };
          geometry: { coordinates: [number, number] };
        }[];
        return features.map((f) => [f.properties.point_count, f.geometry.coordinates[1]] as [number, number]).sort((a, b) => a[0] - b[0]);
      },
      null,
    );
  }

  it('draws the clusters with their counts; a click zooms in, asks the view and shows its points', async () => {
    const token = await server.login(server.admin.userName, server.admin.password);
    const whole = await server.api('GET', '/stats/geo', { token });
    expect(whole.body.points).toBeUndefined();
    expect(whole.body.counts).toEqual([1, 3, 6, 0, 0]);

    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en', viewport: { width: 1280, height: 900 } });
    await signIn(page, server.admin.userName, server.admin.password);
    await poll(() => page.getByTestId('map-header').textContent()).toBe('9 Services, 1 Available Jobs with geo location data');
    const region = page.getByRole('region', { name: 'Map of services and available jobs' });
    await poll(() => region.getAttribute('data-clusters')).toBe('10');
    expect(await region.getAttribute('data-points')).toBeNull();
    await mapAtRest(page);
    await poll(() => drawnClusters(page).then((c) => c.map(([count]) => count))).toEqual([4, 6]);

    // A hidden group leaves the clusters' counts.
    await page.getByTestId('legend-jobs').click();
    await poll(() => drawnClusters(page).then((c) => c.map(([count]) => count))).toEqual([3, 6]);
    await page.getByTestId('legend-jobs').click();
    await poll(() => drawnClusters(page).then((c) => c.map(([count]) => count))).toEqual([4, 6]);

    // A click on the southern cluster zooms in by 2; the map asks the server for that view,
    // which holds 4 markers (under the limit): they come one by one and are drawn as points.
    const views: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/stats/geo?')) views.push(request.url());
    });
    await page.locator('[data-testid="dashboard-map"] canvas.maplibregl-canvas').scrollIntoViewIfNeeded();
    await mapAtRest(page);
    const target = await onMap(
      page,
      (map) => {
        const feature = map
          .queryRenderedFeatures({ layers: ['icrs-server-clusters'] })
          .find((f: { properties: { point_count: number } }) => f.properties.point_count === 4);
        const point = map.project(feature.geometry.coordinates);
        const rect = map.getCanvas().getBoundingClientRect();
        return { x: rect.left + point.x, y: rect.top + point.y };
      },
      null,
    );
    await page.mouse.click(target.x, target.y);
    await poll(() => onMap(page, (map) => map.getZoom() as number, null)).toBeCloseTo(9.5, 1);
    await poll(() => region.getAttribute('data-points')).toBe('4');
    expect(
      views.some((url) => /zoom=9\.5/.test(url) && /west=/.test(url)),
      views.join('\n'),
    ).toBe(true);
    await mapAtRest(page);
    await poll(() =>
      onMap(
        page,
        (map) => map.queryRenderedFeatures({ layers: ['icrs-point-clusters', 'icrs-point-circles', 'icrs-point-pins'] }).length as number,
        null,
      ),
    ).toBeGreaterThan(0);
    expect(await drawnClusters(page)).toEqual([]);
    await context.close();
  });
});
