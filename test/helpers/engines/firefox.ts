// Debian's Firefox ESR, driven by puppeteer-core over WebDriver BiDi. The network is taken off by
// a TCP proxy in front of the test server that refuses every connection (test/helpers/tcp-proxy.ts):
// BiDi in this Firefox has no offline switch, and a refused port is what the app meets with no
// network (its requests fail; navigator.onLine stays true, as on a phone whose Wi-Fi has no
// internet behind it).
import puppeteer, { type ElementHandle } from 'puppeteer-core';
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
import { proxiedOrigin } from './proxied';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export async function launchFirefox(): Promise<Engine> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: FIREFOX_PATH,
    headless: true,
    extraPrefsFirefox: { 'browser.shell.checkDefaultBrowser': false, 'datareporting.policy.dataSubmissionEnabled': false },
  });
  return {
    name: 'firefox',
    version: await browser.version(),
    async newPage(serverURL, options = {}) {
      const origin = await proxiedOrigin(serverURL);
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width: 1280, height: 800 });
      if (options.refuseBlobs) await page.evaluateOnNewDocument(refuseBlobsInPage);
      const found = async (target: Target, timeout: number): Promise<ElementHandle> => {
        const handle = await page.waitForFunction(findInPage, { timeout, polling: 100 }, targetArg(target));
        return handle.asElement() as ElementHandle;
      };
      const opened: EnginePage = {
        engine: 'firefox',
        async goto(path) {
          await page.goto(new URL(path, origin.url).href, { waitUntil: 'load' });
        },
        async reload() {
          await page.reload({ waitUntil: 'load' });
        },
        async path() {
          return new URL(page.url()).pathname;
        },
        async click(target, timeout = 15_000) {
          await (await found(target, timeout)).click();
        },
        async fill(target, value, timeout = 15_000) {
          const field = await found(target, timeout);
          await field.evaluate((element) => (element as HTMLInputElement).select());
          await field.type(value);
        },
        async waitFor(target, timeout = 15_000) {
          await found(target, timeout);
        },
        async waitForText(text, timeout = 15_000) {
          await page.waitForFunction(textInPage, { timeout, polling: 100 }, textArg(text));
        },
        evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
        setOffline: (offline) => origin.setOffline(offline),
        async close() {
          await context.close();
          await origin.close();
        },
      };
      return openAtLogin(opened, options.storage);
    },
    close: () => browser.close(),
  };
}
