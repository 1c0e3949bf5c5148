// One small interface over the three browser engines the critical flows run in (docs/product.md
// "Browsers"): Chromium through playwright-core, Firefox through puppeteer-core over WebDriver
// BiDi, WebKitGTK through WebKitWebDriver (W3C WebDriver classic). The flows are written once
// against it (test/browser/engine-flows.ts).
//
// Elements are found the same way in every engine, by a script run in the page (`FIND_SOURCE`):
// by their role and accessible name, as the user reads them; each driver then acts on the found
// element with its own real input (a click, typed keys), never by setting values from a script.

export type EngineName = 'chromium' | 'firefox' | 'webkit';

export const ENGINES: readonly EngineName[] = ['chromium', 'firefox', 'webkit'];

export type Role = 'button' | 'link' | 'switch' | 'textbox' | 'combobox' | 'option' | 'heading' | 'password';

/** An element by role and accessible name (`name` omitted: the first visible of the role). A
 * string name matches the whole name, a trailing required-field asterisk ignored. */
export interface Target {
  role: Role;
  name?: string | RegExp;
}

export interface EnginePageOptions {
  /** localStorage entries set before the app's first start (language, support handle). */
  storage?: Record<string, string>;
  /** Make every IndexedDB write of a Blob fail as WebKit's private browsing does (the request
   * fails and its transaction aborts). WebKit's automation session refuses Blobs by itself. */
  refuseBlobs?: boolean;
}

export interface EnginePage {
  readonly engine: EngineName;
  /** Loads `path` of the app (relative to the server's origin) and waits for the load event. */
  goto(path: string): Promise<void>;
  reload(): Promise<void>;
  /** The path of the page's current address. */
  path(): Promise<string>;
  click(target: Target, timeoutMs?: number): Promise<void>;
  /** Empties a text field and types `value` into it. */
  fill(target: Target, value: string, timeoutMs?: number): Promise<void>;
  /** Waits until an element of `target` is shown. */
  waitFor(target: Target, timeoutMs?: number): Promise<void>;
  /** Waits until the page's visible text matches. */
  waitForText(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Runs `fn(arg)` in the page (async allowed) and answers its JSON-serialisable result. `fn`
   * must be self-contained: it is sent as source. */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  /** Network off or on for this page: its requests fail as with no network at all. */
  setOffline(offline: boolean): Promise<void>;
  close(): Promise<void>;
}

export interface Engine {
  readonly name: EngineName;
  /** The browser's version, as it reports it. */
  readonly version: string;
  /** A fresh page with empty storage, on `baseURL`'s `/login`. */
  newPage(baseURL: string, options?: EnginePageOptions): Promise<EnginePage>;
  close(): Promise<void>;
}

/** A target as plain data for the page-side finder (a RegExp does not cross the wire). */
export function targetArg(target: Target): { role: Role; name: string | null; pattern: string | null; flags: string } {
  const { role, name } = target;
  if (name instanceof RegExp) return { role, name: null, pattern: name.source, flags: name.flags };
  return { role, name: name ?? null, pattern: null, flags: '' };
}

export type TargetArg = ReturnType<typeof targetArg>;

/**
 * Page-side: the first visible element of the target, or null. Written as one self-contained
 * function: every engine sends its source to the page.
 */
export function findInPage(target: TargetArg): Element | null {
  const selectors: Record<string, string> = {
    button: 'button, [role="button"]',
    link: 'a[href], [role="link"]',
    switch: '[role="switch"]',
    textbox:
      'input:not([type]), input[type="text"], input[type="email"], input[type="tel"], input[type="search"], input[type="number"], textarea, [role="textbox"]',
    password: 'input[type="password"]',
    combobox: '[role="combobox"]',
    option: '[role="option"]',
    heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
  };
  const clean = (text: string | null | undefined) =>
    (text ?? '')
      .replace(/\s+/g, ' ')
      .replace(/[\s*\u2009\u00a0]+$/, '')
      .trim();
  const byIds = (ids: string) =>
    ids
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
  const nameOf = (element: Element): string => {
    const label = element.getAttribute('aria-label');
    if (label) return clean(label);
    const labelledBy = element.getAttribute('aria-labelledby');
    if (labelledBy) return clean(byIds(labelledBy));
    const id = element.getAttribute('id');
    const forLabel = id ? document.querySelector(`label[for="${CSS.escape(id)}"]`) : null;
    if (forLabel) return clean(forLabel.textContent);
    const wrapping = element.closest('label');
    if (wrapping) return clean(wrapping.textContent);
    return clean(element.textContent);
  };
  const visible = (element: Element) => {
    const rects = element.getClientRects();
    if (rects.length === 0) return false;
    const style = getComputedStyle(element);
    return style.visibility !== 'hidden' && !element.closest('[aria-hidden="true"]');
  };
  const pattern = target.pattern === null ? null : new RegExp(target.pattern, target.flags);
  for (const element of Array.from(document.querySelectorAll(selectors[target.role] ?? '*'))) {
    if (!visible(element)) continue;
    const name = nameOf(element);
    if (pattern ? pattern.test(name) : target.name === null || name === target.name) return element;
  }
  return null;
}

/**
 * Page-side: brings `element` to the middle of the view and answers whether a click at its centre
 * would reach it: the centre's topmost element is it (or inside it) and it has not moved since the
 * previous call (`last`, its rectangle then). WebKitWebDriver scrolls and clicks without these
 * checks: in a loop on a loaded machine the page scrolled back (a focus restored late) between its
 * scroll and its click, and the Save's click landed on the form's grid (the trace's record).
 */
export function clickableInPage(element: Element, last: string | null): { ready: boolean; rect: string } {
  const before = element.getBoundingClientRect();
  if (before.top < 0 || before.bottom > innerHeight) element.scrollIntoView({ block: 'center', inline: 'center' });
  const rect = element.getBoundingClientRect();
  const key = `${Math.round(rect.left)},${Math.round(rect.top)},${Math.round(rect.width)},${Math.round(rect.height)}`;
  const top = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
  return { ready: key === last && top !== null && (top === element || element.contains(top)), rect: key };
}

/** Page-side: whether the page's visible text matches. */
export function textInPage(wanted: { text: string | null; pattern: string | null; flags: string }): boolean {
  const text = document.body?.innerText ?? '';
  return wanted.pattern === null ? text.includes(wanted.text ?? '') : new RegExp(wanted.pattern, wanted.flags).test(text);
}

export function textArg(text: string | RegExp): Parameters<typeof textInPage>[0] {
  return text instanceof RegExp ? { text: null, pattern: text.source, flags: text.flags } : { text, pattern: null, flags: '' };
}

/** Polls `check` every 100 ms until it answers true; past `timeoutMs`, fails with `what`. */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function describeTarget(target: Target): string {
  return `${target.role} ${target.name === undefined ? '(any)' : JSON.stringify(String(target.name))}`;
}

/**
 * Page-side, run before the app's scripts: IndexedDB refuses Blobs as WebKit does in private
 * browsing ("UnknownError: Error preparing Blob/File data to be stored in object store"): the
 * write's request fails and its transaction aborts. Chromium and Firefox store Blobs in every
 * mode, so the tests make them refuse to cover that path there too.
 */
export function refuseBlobsInPage(): void {
  const holdsBlob = (value: unknown, depth: number): boolean => {
    if (value instanceof Blob) return true;
    if (depth > 5 || value === null || typeof value !== 'object') return false;
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
    return Object.values(value as Record<string, unknown>).some((inner) => holdsBlob(inner, depth + 1));
  };
  for (const method of ['put', 'add'] as const) {
    const original = IDBObjectStore.prototype[method];
    IDBObjectStore.prototype[method] = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      const request = key === undefined ? original.call(this, value) : original.call(this, value, key);
      if (holdsBlob(value, 0)) this.transaction.abort();
      return request;
    };
  }
  Object.assign(window, { __blobsRefused: true });
}

/** `page` at the app's `/login`, with `storage`'s localStorage entries set before the app's
 * start that counts (the page is loaded again after they are set): how every engine opens. */
export async function openAtLogin(page: EnginePage, storage: EnginePageOptions['storage']): Promise<EnginePage> {
  await page.goto('/login');
  if (storage) {
    await page.evaluate((entries) => Object.entries(entries).forEach(([key, value]) => localStorage.setItem(key, value)), storage);
    await page.reload();
  }
  return page;
}
