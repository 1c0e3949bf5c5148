// A small W3C WebDriver (classic, over HTTP) client: the commands the engine tests use, typed.
// WebKitWebDriver speaks only this protocol (puppeteer-core and playwright-core cannot drive a
// stock WebKitGTK), and a full client library would add far more than these few calls.

/** The W3C key of an element reference in WebDriver answers. */
const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf';

export interface ElementRef {
  [ELEMENT_KEY]: string;
}

export class WebDriverError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/** How long one command may take: past the page's own script (60 s) and load (30 s) timeouts,
 * which the driver enforces and answers with an error; a driver that never answers is a hang. */
export const COMMAND_BOUND_MS = 120_000;
/** How long a new session may take: the driver starts a browser; a healthy start takes ~1 s. */
export const NEW_SESSION_BOUND_MS = 60_000;
/** The code of a WebDriverError for a command the driver did not answer within its bound. */
export const DRIVER_TIMEOUT = 'driver timeout';

async function call<T>(method: string, url: string, body?: unknown, boundMs = COMMAND_BOUND_MS): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(boundMs),
  }).catch((error: unknown) => {
    if (error instanceof Error && error.name === 'TimeoutError') {
      throw new WebDriverError(DRIVER_TIMEOUT, `${method} ${new URL(url).pathname} had no answer in ${boundMs} ms`);
    }
    throw error;
  });
  const answer = (await response.json()) as { value: T | { error: string; message: string } };
  const value = answer.value as { error?: string; message?: string } | null;
  if (!response.ok || (value && typeof value === 'object' && 'error' in value && typeof value.error === 'string')) {
    throw new WebDriverError(value?.error ?? String(response.status), value?.message ?? '');
  }
  return answer.value as T;
}

export class WebDriverSession {
  private constructor(
    private readonly base: string,
    readonly id: string,
    readonly capabilities: Record<string, unknown>,
  ) {}

  static async create(driverURL: string, capabilities: Record<string, unknown>): Promise<WebDriverSession> {
    const created = await call<{ sessionId: string; capabilities: Record<string, unknown> }>(
      'POST',
      `${driverURL}/session`,
      { capabilities: { alwaysMatch: capabilities } },
      NEW_SESSION_BOUND_MS,
    );
    return new WebDriverSession(driverURL, created.sessionId, created.capabilities);
  }

  private command<T>(method: string, path: string, body?: unknown): Promise<T> {
    return call<T>(method, `${this.base}/session/${this.id}${path}`, body);
  }

  /** Loads `url` and returns once its load event has fired (page load strategy "normal"). */
  navigate(url: string): Promise<void> {
    return this.command('POST', '/url', { url });
  }

  refresh(): Promise<void> {
    return this.command('POST', '/refresh', {});
  }

  currentURL(): Promise<string> {
    return this.command('GET', '/url');
  }

  setTimeouts(timeouts: { script?: number; pageLoad?: number; implicit?: number }): Promise<void> {
    return this.command('POST', '/timeouts', timeouts);
  }

  setWindowRect(rect: { width: number; height: number }): Promise<void> {
    return this.command('POST', '/window/rect', rect);
  }

  /** Runs `body` (a function body: `arguments` holds `args`) and answers what it returns; an
   * element comes back as a reference. */
  execute<T>(body: string, args: unknown[] = []): Promise<T> {
    return this.command('POST', '/execute/sync', { script: body, args });
  }

  /** Runs `body` with a callback as its last argument, and answers what it is called with. */
  executeAsync<T>(body: string, args: unknown[] = []): Promise<T> {
    return this.command('POST', '/execute/async', { script: body, args });
  }

  click(element: ElementRef): Promise<void> {
    return this.command('POST', `/element/${element[ELEMENT_KEY]}/click`, {});
  }

  clear(element: ElementRef): Promise<void> {
    return this.command('POST', `/element/${element[ELEMENT_KEY]}/clear`, {});
  }

  sendKeys(element: ElementRef, text: string): Promise<void> {
    return this.command('POST', `/element/${element[ELEMENT_KEY]}/value`, { text });
  }

  delete(): Promise<void> {
    return call('DELETE', `${this.base}/session/${this.id}`, undefined, NEW_SESSION_BOUND_MS);
  }
}
