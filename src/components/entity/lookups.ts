// Lookup lists (territory, category, sector, …) as the forms and lists show them: item labels in
// the user's language, read from the copy cached under the `lists` key at sign-in (product.md §3), so
// the same labels appear online and offline.
import { useEffect, useState } from 'react';
import { ORDERED_LOOKUPS } from '../../../schemas/define';
import type { LookupItem } from '../../../schemas/entities/users';
import { getCachedLists, LISTS_CHANGED_EVENT, LISTS_KEY, type LookupLists } from '../../lib/data';
import type { Lang } from '../../lib/session';

export interface Option<V> {
  value: V;
  label: string;
}

/** react-intl's locale is the app language ('fr' | 'en'); anything else reads as the default. */
export function langOf(locale: string): Lang {
  return locale.startsWith('en') ? 'en' : 'fr';
}

export function itemLabel(item: LookupItem, lang: Lang): string {
  return item[lang] || item.fr || item.en || `#${item.id}`;
}

/** The label of item `id` of list `key`; '#id' when the device does not know it (a list cached
 * before the item was added), so the value is never silently hidden. */
export function lookupLabel(lists: LookupLists | null, key: string, id: unknown, lang: Lang): string {
  if (id === null || id === undefined || id === '') return '';
  const item = lists?.[key]?.find((i) => i.id === Number(id));
  return item ? itemLabel(item, lang) : `#${String(id)}`;
}

/** Items of a list as options sorted by label (a list of levels, ORDERED_LOOKUPS, in its own order). Forms offer active items only, but keep the
 * record's current value (`keep`) even when it was deactivated since, so an edit never
 * changes it behind the user's back. */
export function lookupOptions(
  lists: LookupLists | null,
  key: string,
  lang: Lang,
  options: { activeOnly?: boolean; keep?: number | null } = {},
): Option<number>[] {
  const items = lists?.[key] ?? [];
  const shown = items.filter((i) => !options.activeOnly || i.active !== false || i.id === options.keep);
  const result = shown.map((i) => ({ value: i.id, label: itemLabel(i, lang) }));
  if (options.keep !== null && options.keep !== undefined && !result.some((o) => o.value === options.keep)) {
    result.push({ value: options.keep, label: `#${options.keep}` });
  }
  if ((ORDERED_LOOKUPS as readonly string[]).includes(key)) return result;
  return result.sort((a, b) => a.label.localeCompare(b.label, lang));
}

/** The cached lists. They are refreshed at sign-in, when the app comes online and when the
 * change stream says an administrator edited one; an open form follows the new copy (an item
 * deactivated meanwhile leaves its choices, the record's current value stays: lookupOptions). */
export function useLookupLists(): LookupLists | null {
  const [lists, setLists] = useState(getCachedLists);
  useEffect(() => {
    const reread = (event: Event) => {
      if (event instanceof StorageEvent && event.key !== LISTS_KEY) return;
      setLists(getCachedLists());
    };
    window.addEventListener(LISTS_CHANGED_EVENT, reread);
    window.addEventListener('storage', reread);
    return () => {
      window.removeEventListener(LISTS_CHANGED_EVENT, reread);
      window.removeEventListener('storage', reread);
    };
  }, []);
  return lists;
}
