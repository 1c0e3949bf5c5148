// A signed-in page for the browser benches: what an office worker's open app has behind it.
import type { Browser, Locator, Page } from 'playwright-core';
import { newPage, signIn } from '../test/helpers/browser';

/**
 * Signs `user` in through the login screen in a fresh context of `browser`, with `initScripts`
 * run in each page of it, and waits until the first pull of the device's working set (up to
 * 5,000 rows of each table of the organisation, in pages of 200) is done: no sync request for 3 s.
 */
export async function signedInAfterFirstPull(
  browser: Browser,
  baseURL: string,
  user: { userName: string; password: string },
  initScripts: readonly string[] = [],
  serviceWorkers: 'allow' | 'block' = 'block',
): Promise<Page> {
  const { context, page } = await newPage(browser, { baseURL, lang: 'en', serviceWorkers });
  for (const script of initScripts) await context.addInitScript(script);
  let lastPull = performance.now();
  const pulling = (url: string) => {
    const path = new URL(url).pathname;
    if (path.startsWith('/api/sync/') && path !== '/api/sync/stream') lastPull = performance.now();
  };
  page.on('request', (request) => pulling(request.url()));
  page.on('requestfinished', (request) => pulling(request.url()));
  await signIn(page, user.userName, user.password);
  await passLockScreen(page, user.password, page.getByRole('heading', { name: 'Dashboard' }));
  while (performance.now() - lastPull < 3_000) await page.waitForTimeout(500);
  return page;
}

/** The lock screen's heading (ADR-0020: the device's data sealed until its user unlocks it). */
export const lockScreen = (page: Page): Locator => page.getByRole('heading', { name: 'This device is locked' });

/**
 * Waits until `shown` is in the page. When the lock screen comes first (ADR-0020: a page
 * opened with no unlocked tab of its own: a browser restart, an offline reload, an idle lock),
 * types the password and unlocks, then waits for `shown`. Answers whether it had to unlock.
 */
export async function passLockScreen(page: Page, password: string, shown: Locator, timeout = 60_000): Promise<boolean> {
  const locked = lockScreen(page);
  await shown.or(locked).first().waitFor({ timeout });
  if (!(await locked.isVisible())) return false;
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Unlock', exact: true }).click();
  await shown.waitFor({ timeout });
  return true;
}

/**
 * The client documents (tbl_profiles) as IndexedDB holds them in the page's origin, read raw
 * (under RxDB): how many carry the sealed field (ADR-0020, src/lib/store/sealedStorage.ts) and how
 * many a last name in clear. Checks that a bench of the new build writes and reads sealed
 * clients (the base build: all in clear).
 */
export function storedClients(page: Page): Promise<{ sealed: number; clear: number }> {
  return page.evaluate(`(async () => {
    let sealed = 0;
    let clear = 0;
    for (const { name } of await indexedDB.databases()) {
      if (!name || !/--tbl_profiles$/.test(name)) continue;
      const db = await new Promise((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      if (!Array.from(db.objectStoreNames).includes('docs')) { db.close(); continue; }
      const rows = await new Promise((resolve, reject) => {
        const request = db.transaction('docs', 'readonly').objectStore('docs').getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      for (const row of rows) {
        if (typeof row.sealed === 'string') sealed++;
        if (typeof row.lastName === 'string') clear++;
      }
      db.close();
    }
    return { sealed, clear };
  })()`);
}
