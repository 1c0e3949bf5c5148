// Headless Chromium for the browser tests (playwright-core drives the system Chromium).
// One browser per test file, a fresh context (empty storage) per test.
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { watchPage } from './failure-report';
import { startTestServer, type TestServer, type TestUser } from './server';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface PageOptions {
  baseURL: string;
  viewport?: { width: number; height: number };
  /** Language stored before the first load when none is stored yet (the app defaults to fr). */
  lang?: 'fr' | 'en';
  /** Only the service-worker test lets the worker run. */
  serviceWorkers?: 'allow' | 'block';
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
}

/**
 * A fresh context: empty localStorage, no service worker (a worker would serve cached pages
 * between tests and hide what the server answers).
 */
export async function newPage(browser: Browser, options: PageOptions): Promise<TestPage> {
  const context = await browser.newContext({
    baseURL: options.baseURL,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    serviceWorkers: options.serviceWorkers ?? 'block',
  });
  if (options.lang) {
    await context.addInitScript((lang) => {
      if (!localStorage.getItem('lang')) localStorage.setItem('lang', lang);
    }, options.lang);
  }
  context.on('page', watchPage);
  const page = await context.newPage();
  return { context, page };
}

/** Signs in through the login screen and waits for the page load that follows. */
export async function signIn(page: Page, userName: string, password: string, path = '/login'): Promise<void> {
  await page.goto(path);
  await page.getByLabel(/^(Username|Nom d'utilisateur)/).fill(userName);
  await page
    .getByLabel(/^(Password|Mot de passe)/, { exact: false })
    .first()
    .fill(password);
  await Promise.all([
    page.waitForURL((url) => url.pathname !== '/login'),
    page.getByRole('button', { name: /^(Login|Se connecter)$/ }).click(),
  ]);
}

/** Reads one localStorage key of the page's origin. */
export function storageItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => localStorage.getItem(k), key);
}

/** The page's session token: in its tab's sessionStorage, never in localStorage (docs/security.md
 * "Shared and lost devices"). */
export function sessionToken(page: Page): Promise<string | null> {
  return page.evaluate(() => sessionStorage.getItem('icrs.token'));
}

/** The accessible names of the links inside `container`, as the browser's accessibility tree
 * computes them (what a screen reader announces), in document order. */
export async function linkNames(container: Locator): Promise<string[]> {
  const snapshot = await container.ariaSnapshot();
  // YAML quotes a whole entry that holds a colon: - 'link "My profile: admin"'.
  return [...snapshot.matchAll(/- '?link "((?:[^"\\]|\\.)*)"/g)].map((match) => JSON.parse(`"${match[1]}"`) as string);
}

/** The screen has what it was loading (no skeleton, no loading bar) and no toast covers it: the
 * pointer leaves the corner, since a toast under it stays. */
export async function settle(page: Page, timeout = 15_000): Promise<void> {
  const busy = '.MuiSkeleton-root, .MuiLinearProgress-root, .MuiCircularProgress-root, [data-testid="toast"]';
  await page.mouse.move(400, 30);
  await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 0, busy, { timeout, polling: 100 });
}

/** A test file's shared pieces: a server, a browser, and the first administrator signed in on a
 * page (and holding an API token), with the file's extra users created. */
export interface AdminSession {
  t: TestServer;
  browser: Browser;
  admin: TestPage;
  adminToken: string;
  close(): Promise<void>;
}

export async function startAdminSession(
  options: { server?: Parameters<typeof startTestServer>[0]; users?: TestUser[]; lang?: PageOptions['lang'] } = {},
): Promise<AdminSession> {
  const [t, browser] = await Promise.all([startTestServer(options.server), launchBrowser()]);
  for (const user of options.users ?? []) await t.createUser(user);
  const adminToken = await t.login(t.admin.userName, t.admin.password);
  const admin = await newPage(browser, { baseURL: t.url, lang: options.lang ?? 'en' });
  await signIn(admin.page, t.admin.userName, t.admin.password);
  return {
    t,
    browser,
    admin,
    adminToken,
    async close() {
      await browser.close();
      await t.close();
    },
  };
}

/** Answers the lock screen (ADR-0020: after a browser restart, a reload without network or an
 * idle lock) with the password, and waits until it is gone. */
export async function unlock(page: Page, password: string): Promise<void> {
  await page.getByRole('heading', { name: /^(This device is locked|Cet appareil est verrouillé)$/ }).waitFor();
  await page.getByLabel(/^(Password|Mot de passe)/).fill(password);
  await page.getByRole('button', { name: /^(Unlock|Déverrouiller)$/ }).click();
  await page.getByTestId('unlock-page').waitFor({ state: 'detached' });
}

/** Turns offline mode on (the top bar's switch) and saves an Education provider in Beni named
 * `name` through its form; resolves on the new provider's page. */
export async function saveProviderOffline(page: Page, name: string): Promise<void> {
  await page.getByRole('switch', { name: 'Offline mode' }).check();
  await page.waitForURL((url) => url.pathname === '/offlinehp');
  await page.goto('/serviceproviders/add');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('combobox', { name: 'Type', exact: true }).click();
  await page.getByRole('option', { name: 'Education', exact: true }).click();
  await page.getByRole('combobox', { name: 'Territory' }).fill('Beni');
  await page.getByRole('option', { name: 'Beni', exact: true }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL((url) => /^\/serviceproviders\/[0-9a-f-]{36}$/.test(url.pathname));
}

/** A new page with the app's debug handle on (`window.__icrs`, read by the tests). */
export async function newDebugPage(browser: Browser, options: PageOptions): Promise<TestPage> {
  const opened = await newPage(browser, options);
  await opened.context.addInitScript(() => localStorage.setItem('icrsDebug', '1'));
  return opened;
}

/** Resolves once the page's debug handle has its data layer (the store is open). */
export async function storeReady(page: Page): Promise<void> {
  await page.waitForFunction(() => Boolean(window.__icrs?.data));
}

/** Every value the origin keeps, raw: localStorage, sessionStorage, every IndexedDB database,
 * store and value (stringified, bytes as base64 and as characters), and the Cache Storage. */
export function everythingStored(page: Page): Promise<string[]> {
  return page.evaluate(storedValuesInPage);
}

/** Page-side: the keys of the clients (`tbl_profiles`, not deleted) in the app's IndexedDB, read
 * raw (the store's own layout: each key in clear, the rest sealed). Self-contained, so that
 * every engine's driver can send it (test/helpers/engines). */
export async function storedClientKeysInPage(): Promise<string[]> {
  const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => /^rxdb-dexie-icrs_db-.*--tbl_profiles$/.test(n));
  const keys: string[] = [];
  for (const name of names) {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const rows = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const request = db.transaction('docs').objectStore('docs').getAll();
      request.onsuccess = () => resolve(request.result as Record<string, unknown>[]);
      request.onerror = () => reject(request.error);
    });
    keys.push(...rows.filter((r) => r._deleted !== '1' && r._deleted !== true).map((r) => String(r.prof_Id)));
    db.close();
  }
  return keys;
}

/** Page-side half of `everythingStored`, self-contained so that every engine's driver can send it
 * (test/helpers/engines). */
export async function storedValuesInPage(): Promise<string[]> {
  {
    const values: string[] = [];
    const bytesText = (bytes: Uint8Array) => {
      let raw = '';
      for (const b of bytes) raw += String.fromCharCode(b);
      return `${btoa(raw)} ${raw}`;
    };
    const blobs: Blob[] = [];
    const replacer = (_key: string, value: unknown) => {
      if (value instanceof ArrayBuffer) return bytesText(new Uint8Array(value));
      if (ArrayBuffer.isView(value)) return bytesText(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      if (value instanceof Blob) {
        blobs.push(value);
        return '[blob]';
      }
      return value;
    };
    for (const storage of [localStorage, sessionStorage]) {
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i)!;
        values.push(key, storage.getItem(key) ?? '');
      }
    }
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const [rows, keys] = await Promise.all(
          (['getAll', 'getAllKeys'] as const).map(
            (method) =>
              new Promise<unknown[]>((resolve, reject) => {
                const request = db.transaction(store, 'readonly').objectStore(store)[method]();
                request.onsuccess = () => resolve(request.result as unknown[]);
                request.onerror = () => reject(request.error);
              }),
          ),
        );
        for (const row of [...rows, ...keys]) values.push(typeof row === 'string' ? row : JSON.stringify(row, replacer));
      }
      db.close();
    }
    for (const blob of blobs) values.push(bytesText(new Uint8Array(await blob.arrayBuffer())));
    for (const cacheName of await caches.keys()) {
      const cache = await caches.open(cacheName);
      for (const request of await cache.keys()) {
        values.push(request.url, bytesText(new Uint8Array(await (await cache.match(request))!.arrayBuffer())));
      }
    }
    return values;
  }
}

/** A day 'YYYY-MM-DD' as staff type it in the app's date field: '10/05/2031' (src/lib/ui/dayText.ts). */
export function typedDay(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${day}/${month}/${year}`;
}

/** The job form's own title field (the first "Title" of the form: each other-job row has its own). */
export const jobTitleField = (page: Page): Locator =>
  page
    .locator('form')
    .getByRole('textbox', { name: /^Title/ })
    .first();

/**
 * Chooses `option` in the select `combobox` and waits until the select shows it with its menu
 * closed. While a select's menu is open, the rest of the page is hidden from the accessibility
 * tree (`aria-hidden`): a role query there finds nothing, so a check such as "no row of this
 * name" would pass for the wrong reason. An option click the menu did not take (seen once on a
 * loaded CI: the menu stayed open) is made once more, and said.
 */
export async function chooseOption(page: Page, combobox: Locator, option: string): Promise<void> {
  await combobox.click();
  const listbox = page.getByRole('listbox');
  for (let attempt = 1; ; attempt++) {
    await listbox.getByRole('option', { name: option, exact: true }).click();
    const closed = await listbox.waitFor({ state: 'hidden', timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (closed) break;
    if (attempt === 2) throw new Error(`the menu stayed open after two clicks on "${option}"`);
    console.warn(`chooseOption: the menu stayed open 5 s after a click on "${option}"; clicking it again`);
  }
  const shown = () => combobox.textContent().then((text) => text?.trim());
  for (const started = Date.now(); (await shown()) !== option; await page.waitForTimeout(100))
    if (Date.now() - started > 10_000) throw new Error(`the select shows "${await shown()}", not "${option}"`);
}
