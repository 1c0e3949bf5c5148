// One intl object per page load, created before React renders, so code outside React (the axios
// interceptor, toasts) and components translate from the same catalog. A language change
// reloads the page (product.md §4), so the object never needs to change at run time.
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { useCallback, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { DEFAULT_LANG, type Lang } from './session';

export type Messages = Record<string, string>;
export type AppIntl = IntlShape<ReactNode>;

/** Nested catalog as stored in public/assets/i18n/{lang}.json. */
export interface Catalog {
  [key: string]: string | Catalog;
}

/** Turns { a: { b: 'x' } } into { 'a.b': 'x' }, the flat ids react-intl expects. */
export function flatten(catalog: Catalog, prefix = ''): Messages {
  const out: Messages = {};
  for (const [key, value] of Object.entries(catalog)) {
    const id = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[id] = value;
    else Object.assign(out, flatten(value, id));
  }
  return out;
}

/** Keys present in `a` but missing from `b`; both catalogs must have the same keys. */
export function missingKeys(a: Messages, b: Messages): string[] {
  return Object.keys(a).filter((key) => !(key in b));
}

const catalogCache = new Map<Lang, Promise<Messages>>();

/** product.md §7: GET /assets/i18n/{lang}.json. Cached so help pages can show the other language. */
export function loadMessages(lang: Lang): Promise<Messages> {
  let pending = catalogCache.get(lang);
  if (!pending) {
    pending = fetch(`/assets/i18n/${lang}.json`)
      .then((response) => {
        if (!response.ok) throw new Error(`i18n ${lang}: HTTP ${response.status}`);
        return response.json() as Promise<Catalog>;
      })
      .then((catalog) => flatten(catalog));
    pending.catch(() => catalogCache.delete(lang)); // allow a retry after a failed load
    catalogCache.set(lang, pending);
  }
  return pending;
}

const cache = createIntlCache();

export function buildIntl(lang: Lang, messages: Messages): AppIntl {
  return createIntl<ReactNode>(
    {
      locale: lang,
      defaultLocale: DEFAULT_LANG,
      messages,
      onError: (error) => {
        // A missing key shows the id on screen; log it loudly in development only.
        if (import.meta.env.DEV) console.warn(error.message);
      },
    },
    cache,
  );
}

let current: AppIntl | null = null;

export function setAppIntl(intl: AppIntl): void {
  current = intl;
}

export function getAppIntl(): AppIntl {
  if (!current) current = buildIntl(DEFAULT_LANG, {}); // before bootstrap: ids are shown
  return current;
}

/** Translate outside React (interceptor, notify callers). */
export function t(id: string, values?: Record<string, string | number>): string {
  return getAppIntl().formatMessage({ id }, values);
}

export type Say = (id: string, values?: Record<string, string | number>) => string;

/** The one way a component translates: `const say = useSay()`, then `say('clients.saved', { regNo })`.
 * Code outside React uses `t` above; both read the same catalog. */
export function useSay(): Say {
  const intl = useIntl();
  return useCallback<Say>((id, values) => intl.formatMessage({ id }, values), [intl]);
}
