// WebKitGTK: Debian's MiniBrowser driven through WebKitWebDriver (W3C WebDriver classic), on a
// virtual display (Xvfb) started here. Each page is a new WebDriver session, that is a new
// MiniBrowser with an ephemeral store, the closest to Safari's private browsing: it refuses Blobs
// in IndexedDB ("UnknownError: Error preparing Blob/File data to be stored in object store").
// The network is taken off by a TCP proxy in front of the test server (./proxied.ts): WebDriver
// classic has no offline switch.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { proxiedOrigin } from './proxied';
import {
  clickableInPage,
  describeTarget,
  findInPage,
  targetArg,
  textArg,
  textInPage,
  until,
  type Engine,
  type EnginePage,
  type Target,
  openAtLogin,
} from './types';
import { DRIVER_TIMEOUT, WebDriverError, WebDriverSession, type ElementRef } from './webdriver';

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** Xvfb on the first free display; resolves with its name (":N") once it listens. */
function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    xvfb.once('error', reject);
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it listened`)));
    xvfb.stdio[3]!.once('data', (data: Buffer) => resolve({ display: `:${String(data).trim()}`, process: xvfb }));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A page script run over `execute/async`: `fn(arg)`, awaited; its error comes back as data, with
 * its name and message (a WebDriver "javascript error" would lose them, and WebKit's `stack` of
 * an error made in a minified chunk can be a bare "@"). */
function asyncCall(fnSource: string): string {
  return `const done = arguments[arguments.length - 1];
const arg = arguments[0];
Promise.resolve()
  .then(() => (${fnSource})(arg))
  .then((value) => done({ ok: true, value: value === undefined ? null : value }), (error) => done({ ok: false, error: error instanceof Error ? error.name + ': ' + error.message + ' (' + (error.stack || 'no stack') + ')' : String(error) }));`;
}

/** A WebKitWebDriver process, the leader of its own process group (its MiniBrowsers and their
 * WebKit processes are in it), with the last lines it wrote, for the report of a hang. */
interface Driver {
  url: string;
  process: ChildProcess;
  log: string[];
}

async function startDriver(display: string): Promise<Driver> {
  const port = await freePort();
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], {
    env: { ...process.env, DISPLAY: display },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const log: string[] = [];
  const keep = (data: Buffer) => {
    log.push(...String(data).trimEnd().split('\n'));
    log.splice(0, Math.max(0, log.length - 20));
  };
  driver.stdout!.on('data', keep);
  driver.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  await until(() => fetch(`${url}/status`).then((response) => response.ok), 'WebKitWebDriver to answer', 10_000);
  return { url, process: driver, log };
}

/** Ends the driver and every process it started (its group). */
function stopDriver(driver: Driver): void {
  try {
    process.kill(-driver.process.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

export async function launchWebKit(): Promise<Engine> {
  const xvfb = await startXvfb();
  let driver = await startDriver(xvfb.display);
  let version = '';

  return {
    name: 'webkit',
    get version() {
      return version;
    },
    async newPage(serverURL, options = {}) {
      const origin = await proxiedOrigin(serverURL);
      let session: WebDriverSession;
      try {
        session = await WebDriverSession.create(driver.url, {
          'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
        });
      } catch (error) {
        await origin.close();
        if (!(error instanceof WebDriverError && error.code === DRIVER_TIMEOUT)) throw error;
        // A driver that does not start a browser is replaced: the next page gets a fresh one.
        const log = driver.log.join('\n');
        stopDriver(driver);
        driver = await startDriver(xvfb.display);
        throw new Error(`${error.message}; WebKitWebDriver restarted. Its last lines:\n${log}`, { cause: error });
      }
      version = String(session.capabilities.browserVersion ?? '');
      await session.setTimeouts({ script: 60_000, pageLoad: 30_000 });
      await session.setWindowRect({ width: 1280, height: 800 }).catch(() => undefined); // Xvfb has no window manager to refuse it
      const evaluate = async <A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> => {
        const answer = await session.executeAsync<{ ok: boolean; value: R; error: string }>(asyncCall(String(fn)), [arg]);
        if (!answer.ok) throw new Error(`in the page: ${answer.error}`);
        return answer.value;
      };
      const found = async (target: Target, timeout: number): Promise<ElementRef> => {
        let element: ElementRef | null = null;
        const find = `return (${String(findInPage)})(arguments[0]);`;
        await until(
          async () => {
            element = await session.execute<ElementRef | null>(find, [targetArg(target)]);
            return element !== null;
          },
          describeTarget(target),
          timeout,
        );
        return element!;
      };
      const opened: EnginePage = {
        engine: 'webkit',
        goto: (path) => session.navigate(new URL(path, origin.url).href),
        reload: () => session.refresh(),
        async path() {
          return new URL(await session.currentURL()).pathname;
        },
        async click(target, timeout = 15_000) {
          const element = await found(target, timeout);
          // In view, still and on top before the click (clickableInPage): else the click may land
          // on whatever lies there, silently.
          const check = `return (${String(clickableInPage)})(arguments[0], arguments[1]);`;
          let last: string | null = null;
          await until(
            async () => {
              const state = await session.execute<{ ready: boolean; rect: string }>(check, [element, last]);
              last = state.rect;
              return state.ready;
            },
            `${describeTarget(target)} to be clickable`,
            timeout,
          );
          await session.click(element);
        },
        async fill(target, value, timeout = 15_000) {
          const field = await found(target, timeout);
          await session.clear(field);
          await session.sendKeys(field, value);
        },
        async waitFor(target, timeout = 15_000) {
          await found(target, timeout);
        },
        async waitForText(text, timeout = 15_000) {
          const check = `return (${String(textInPage)})(arguments[0]);`;
          await until(() => session.execute<boolean>(check, [textArg(text)]), `the text ${String(text)}`, timeout);
        },
        evaluate,
        setOffline: (offline) => origin.setOffline(offline),
        async close() {
          await session.delete().catch(() => undefined);
          await origin.close();
        },
      };
      try {
        await openAtLogin(opened, options.storage);
      } catch (error) {
        await opened.close();
        throw error;
      }
      return opened;
    },
    async close() {
      stopDriver(driver);
      xvfb.process.kill();
    },
  };
}
