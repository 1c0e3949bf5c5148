// A signed-in page for the browser benches: what an office worker's open app has behind it.
import type { Browser, Page } from 'playwright-core';
import { newPage, signIn } from '../test/helpers/browser';

/**
 * Signs `user` in through the login screen in a fresh context of `browser`, with `initScripts`
 * run in each page of it, and waits until the first pull of the device's working set (up to
 * 5,000 rows of each table of the organisation, in pages of 200) is done: no sync request for 3 s.
 */
export async function signedInAfterFirstPull(browser: Browser, baseURL: string, user: { userName: string; password: string }, initScripts: readonly string[] = []): Promise<Page> {
  const { context, page } = await newPage(browser, { baseURL, lang: 'en' });
  for (const script of initScripts) await context.addInitScript(script);
  let lastPull = performance.now();
  const pulling = (url: string) => {
    const path = new URL(url).pathname;
    if (path.startsWith('/api/sync/') && path !== '/api/sync/stream') lastPull = performance.now();
  };
  page.on('request', (request) => pulling(request.url()));
  page.on('requestfinished', (request) => pulling(request.url()));
  await signIn(page, user.userName, user.password);
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  while (performance.now() - lastPull < 3_000) await page.waitForTimeout(500);
  return page;
}
