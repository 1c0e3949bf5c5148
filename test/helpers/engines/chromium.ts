// Chromium, as every other browser test drives it (test/helpers/browser.ts): playwright-core over
// the DevTools protocol, which also takes the network off (the page's requests fail at once and
// navigator.onLine turns false, as on a phone in flight mode).
import type { ElementHandle } from 'playwright-core';
import { launchBrowser } from '../browser';
import {
  findInPage,
  refuseBlobsInPage,
  targetArg,
  textArg,
  textInPage,
  type Engine,
  type EnginePage,
  type Target,
  openAtLogin,
} from './types';

export async function launchChromium(): Promise<Engine> {
  const browser = await launchBrowser();
  return {
    name: 'chromium',
    version: browser.version(),
    async newPage(baseURL, options = {}) {
      // Service workers allowed: the offline restart is served by the app's worker.
      const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, serviceWorkers: 'allow' });
      if (options.refuseBlobs) await context.addInitScript(refuseBlobsInPage);
      const page = await context.newPage();
      const found = async (target: Target, timeout: number): Promise<ElementHandle> => {
        const handle = await page.waitForFunction(findInPage, targetArg(target), { timeout, polling: 100 });
        return handle.asElement() as ElementHandle;
      };
      const opened: EnginePage = {
        engine: 'chromium',
        async goto(path) {
          await page.goto(path);
        },
        async reload() {
          await page.reload();
        },
        async path() {
          return new URL(page.url()).pathname;
        },
        async click(target, timeout = 15_000) {
          await (await found(target, timeout)).click();
        },
        async fill(target, value, timeout = 15_000) {
          await (await found(target, timeout)).fill(value);
        },
        async waitFor(target, timeout = 15_000) {
          await found(target, timeout);
        },
        async waitForText(text, timeout = 15_000) {
          await page.waitForFunction(textInPage, textArg(text), { timeout, polling: 100 });
        },
        evaluate: (fn, arg) => page.evaluate(fn as never, arg),
        setOffline: (offline) => context.setOffline(offline),
        close: () => context.close(),
      };
      return openAtLogin(opened, options.storage);
    },
    close: () => browser.close(),
  };
}
