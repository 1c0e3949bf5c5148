// The installed app (ADR-0034): Chromium finds it installable (manifest, icons, worker); API
// calls never come from the worker's cache; after one online visit it starts after a browser
// restart with no network at all (offline home, forms, lists, pending records, a new record
// saves); a new build that bumps an RxDB schema version, served while records wait, is offered,
// activated on confirmation, and every waiting record is still there and uploads; an update
// waits for a running upload.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { appendToBuiltFile } from '../helpers/build';
import { CHROMIUM_ARGS, launchBrowser, newPage, signIn, unlock } from '../helpers/browser';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
const work = mkdtempSync(path.join(tmpdir(), 'icrs-install-'));
/** What the server serves: build 1 at first, replaced by build 2 during the update test. */
const staticDir = path.join(work, 'served');
const nextBuild = path.join(work, 'next', 'dist');
const field = { userName: 'field5', password: 'field-password-5', role: 5, location: 2 };

/** The store version of the providers' collection in build 1, and in build 2 (one more). */
const PROVIDER_VERSION = 0;

/**
 * Build 2: the same sources with the providers' offline schema one version up and a migration
 * step that marks each stored document, made once into `nextBuild` (vite build, ~10 s).
 */
function buildNext(): void {
  const src = path.join(work, 'next');
  mkdirSync(path.join(src, 'server', 'lib'), { recursive: true });
  for (const name of ['index.html', 'vite.config.ts', 'package.json', 'tsconfig.json', 'src', 'schemas', 'public'])
    cpSync(path.resolve(name), path.join(src, name), { recursive: true });
  for (const file of ['hashedAsset.ts', 'precompressed.ts']) cpSync(path.resolve('server/lib', file), path.join(src, 'server/lib', file));
  symlinkSync(path.resolve('node_modules'), path.join(src, 'node_modules'));
  const providers = path.join(src, 'schemas/entities/providers.ts');
  const declaration = "  name: 'serviceProvider',\n";
  const text = readFileSync(providers, 'utf8');
  if (!text.includes(declaration)) throw new Error('providers declaration moved: update the test');
  writeFileSync(providers, text.replace(declaration, `${declaration}  rxVersion: ${PROVIDER_VERSION + 1},\n`));
  const migrations = path.join(src, 'src/lib/store/migrations.ts');
  const steps = 'export const MIGRATION_STEPS: MigrationSteps = {};';
  const migrationText = readFileSync(migrations, 'utf8');
  if (!migrationText.includes(steps)) throw new Error('migration steps moved: update the test');
  // The step keeps every value and adds nothing the schema refuses: a record migrated is the same record.
  writeFileSync(
    migrations,
    migrationText.replace(
      steps,
      `export const MIGRATION_STEPS: MigrationSteps = { tbl_serviceprovider: { ${PROVIDER_VERSION + 1}: (doc) => ({ ...doc }) } };`,
    ),
  );
  // A production build, as `npm run build` makes (the test runner's NODE_ENV would give a development one).
  const env = { ...process.env, NODE_ENV: 'production' };
  execFileSync(
    process.execPath,
    [path.resolve('node_modules/vite/bin/vite.js'), 'build', '--outDir', nextBuild, '--emptyOutDir', '--logLevel', 'error'],
    { cwd: src, stdio: 'inherit', env },
  );
}

function serve(build: string): void {
  rmSync(staticDir, { recursive: true, force: true });
  cpSync(build, staticDir, { recursive: true });
}

beforeAll(async () => {
  serve(path.resolve('dist'));
  buildNext();
  [server, browser] = await Promise.all([startTestServer({ config: { staticDir } }), launchBrowser()]);
  await ensureOrganisations(server.server.db);
  await server.createUser(field);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

const poll = <T>(read: () => Promise<T> | T, timeout = 30_000) => expect.poll(read, { timeout, interval: 200 });

/** Signed in online with the support handle on, the worker installed and in control. */
async function installed(page: Page): Promise<void> {
  await signIn(page, field.userName, field.password);
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  await page.waitForFunction(() => localStorage.getItem('lists') !== null);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload(); // the worker controls the pages opened after it activated
  await poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? 'none')).toBe('activated');
  await page.waitForFunction(() => Boolean(window.__icrs?.data));
}

function saveProvider(page: Page, name: string): Promise<string> {
  return page.evaluate(async (spName) => {
    const handle = window.__icrs;
    if (!handle?.data) throw new Error('no support handle');
    const saved = (await handle.data.create(handle.entities.serviceProvider as never, {
      sp_Name: spName,
      sp_type: 1,
      territory: 2,
    })) as Record<string, unknown>;
    return String(saved.sp_Id);
  }, name);
}

const pendingOf = (page: Page) => page.evaluate(() => window.__icrs?.countPending() ?? -1);
const providerVersion = (page: Page) => page.evaluate(() => window.__icrs?.db.collections.tbl_serviceprovider?.schema.version ?? -1);
const pendingNames = (page: Page) =>
  page.evaluate(async () => {
    const docs = (await window.__icrs?.db.collections.tbl_serviceprovider?.find({ selector: { syncState: 'pending' } }).exec()) ?? [];
    return docs.map((doc) => String(doc.get('sp_Name'))).sort();
  });

describe('installed app', () => {
  it('has the manifest and icons, and API answers never come from the worker', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en', serviceWorkers: 'allow' });
    await context.addInitScript(() => localStorage.setItem('icrsDebug', '1'));
    await installed(page);
    const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as {
      icons: { src: string; sizes: string; purpose: string }[];
      theme_color: string;
      name: string;
      short_name: string;
    };
    expect(manifest).toMatchObject({ short_name: 'ICRS', theme_color: '#1e3a5f' });
    for (const [sizes, purpose] of [
      ['192x192', 'any'],
      ['512x512', 'any'],
      ['512x512', 'maskable'],
    ]) {
      const icon = manifest.icons.find((i) => i.sizes === sizes && i.purpose === purpose);
      expect(icon, `${sizes} ${purpose}`).toBeDefined();
      const answer = await fetch(`${server.url}/${icon?.src ?? ''}`);
      expect(answer.headers.get('content-type')).toBe('image/png');
    }
    // The precache holds what the offline screens need beyond the scripts: the map's base layer
    // and the help pages' pictures.
    const precached = await page.evaluate(async () => {
      const paths: string[] = [];
      for (const name of (await caches.keys()).filter((n) => n.includes('precache'))) {
        for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
      }
      return paths;
    });
    expect(precached).toContain('/map/basemap.json');
    expect(precached.some((p) => p.startsWith('/help/') && p.endsWith('.webp'))).toBe(true);
    // The dark theme colours the window's frame like its top bar.
    await page.getByRole('switch', { name: 'Dark theme' }).check();
    await poll(() => page.evaluate(() => document.querySelector('meta[name="theme-color"]')?.getAttribute('content'))).toBe('#1d1d1d');

    // The app's files come from the precache; the API's answers from the server, always.
    const script = page.waitForResponse((r) => r.url().includes('/assets/') && r.url().endsWith('.js'));
    const apiCall = page.waitForResponse((r) => r.url().includes('/api/'));
    await page.reload();
    expect((await script).fromServiceWorker()).toBe(true);
    expect((await apiCall).fromServiceWorker()).toBe(false);
    await context.setOffline(true);
    await expect(
      page.evaluate(() =>
        fetch('/api/lists/profilelist').then(
          (r) => r.status,
          () => 'no answer',
        ),
      ),
    ).resolves.toBe('no answer');
    await context.close();
  });

  it('is installable and starts after a browser restart with no network: offline home, forms, lists, pending records, and a new record saves', async () => {
    const profile = path.join(work, 'profile');
    const open = () =>
      chromium.launchPersistentContext(profile, {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: CHROMIUM_ARGS,
        baseURL: server.url,
        serviceWorkers: 'allow',
        viewport: { width: 1280, height: 800 },
      });
    let context: BrowserContext = await open();
    await context.addInitScript(() => {
      localStorage.setItem('icrsDebug', '1');
      if (!localStorage.getItem('lang')) localStorage.setItem('lang', 'en');
    });
    let page = context.pages()[0] ?? (await context.newPage());
    await installed(page);
    // Chromium offers to install it (a normal profile: an incognito one never does).
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);
    const waiting = await saveProvider(page, 'Saved before the restart'); // online: straight to the server
    expect(waiting).toMatch(/^[0-9a-f-]{36}$/);
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await saveProvider(page, 'Waiting on the device');
    await poll(() => pendingOf(page)).toBe(1);
    await context.close(); // the browser quits

    context = await open();
    await context.setOffline(true);
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    // The device's data opens with the password, without the network (ADR-0020); every page
    // load without network asks again.
    await unlock(page, field.password);
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await page.getByRole('heading', { name: 'Offline home', level: 1 }).waitFor();
    await poll(() => pendingOf(page)).toBe(1);
    for (const [url, heading] of [
      ['/serviceproviders/add', 'Add Service Provider'],
      ['/availablejobs/add', 'Add Available Job'],
      ['/profiles/add', 'Add Client'],
      ['/serviceproviders', 'Service Providers'],
      ['/availablejobs', 'Available Jobs'],
      ['/profiles', 'Clients'],
    ] as const) {
      await page.goto(url);
      await unlock(page, field.password);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    }
    await page.goto('/serviceproviders');
    await unlock(page, field.password);
    await page.getByRole('row').filter({ hasText: 'Waiting on the device' }).waitFor();
    await page.goto('/offlinehp/pending');
    await unlock(page, field.password);
    await page.getByText('Waiting on the device').first().waitFor();
    // A screen only the server can answer says so, rather than spin.
    await page.goto('/users/chngpas');
    await unlock(page, field.password);
    await page.getByRole('heading', { name: 'Change Password', level: 1 }).waitFor();
    await page.getByTestId('needs-connection').waitFor();

    // A new record, with the network still off, through the form.
    await page.goto('/serviceproviders/add');
    await unlock(page, field.password);
    await page.getByLabel(/^Name/).first().fill('Saved after the restart');
    await page.getByRole('combobox', { name: /^Type/ }).click();
    await page.getByRole('option', { name: 'Social' }).click();
    await page.getByRole('combobox', { name: /^Territory/ }).click();
    await page.getByRole('option', { name: 'Goma' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('heading', { name: 'Saved after the restart', level: 1 }).waitFor();
    await poll(() => pendingOf(page)).toBe(2);
    await context.close();
  }, 150_000);

  it('offers a new build that migrates the store, keeps every waiting record, and uploads them; an upload delays the update', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en', serviceWorkers: 'allow' });
    await context.addInitScript(() => localStorage.setItem('icrsDebug', '1'));
    await installed(page);
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    for (const name of ['Kept across the update 1', 'Kept across the update 2', 'Kept across the update 3']) await saveProvider(page, name);
    await poll(() => pendingOf(page)).toBe(3);
    expect(await providerVersion(page)).toBe(PROVIDER_VERSION);

    // Build 2 is served; the app finds it at its next check and asks.
    serve(nextBuild);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    await page.getByText('Please refresh your page to update!').waitFor({ timeout: 40_000 });
    const dialog = page.getByRole('dialog');
    await dialog.getByText('update available for the app please confirm').waitFor();
    await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: 'Update' }).click()]);
    await page.waitForFunction(() => Boolean(window.__icrs?.data), undefined, { timeout: 30_000 });
    expect(await providerVersion(page)).toBe(PROVIDER_VERSION + 1);
    await poll(() => pendingOf(page)).toBe(3);
    expect(await pendingNames(page)).toEqual(['Kept across the update 1', 'Kept across the update 2', 'Kept across the update 3']);

    // An upload with slow answers; a newer version arrives meanwhile: no prompt until it ends.
    // Providers go up in a batch (POST /api/sync/push/…), or alone with an image.
    await page.route(
      (url) => url.pathname.startsWith('/api/sync/push') || url.pathname.startsWith('/api/sproviers'),
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 8000));
        await route.continue();
      },
    );
    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/offlinehp');
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    appendToBuiltFile(staticDir, 'sw.js', '\n// build 3\n');
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    await poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(true);
    // The new worker waits; while the upload runs, nothing is offered.
    expect(await pendingOf(page)).toBeGreaterThan(0);
    await expect(page.getByText('Please refresh your page to update!').count()).resolves.toBe(0);
    await poll(() => pendingOf(page)).toBe(0);
    await page.getByText('Please refresh your page to update!').waitFor();
    const token = await server.login(field.userName, field.password);
    const listed = await server.api('GET', '/sproviers?q=Kept%20across&pageSize=25', { token });
    expect(listed.body.rows.map((r: { sp_Name: string }) => r.sp_Name).sort()).toEqual([
      'Kept across the update 1',
      'Kept across the update 2',
      'Kept across the update 3',
    ]);
    await context.close();
  }, 150_000);
});
