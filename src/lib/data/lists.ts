// The lookup lists under the `lists` storage key (product.md §3), so that forms, and registration
// numbers of new profiles, work offline. The signed-in user is kept under `user` by the login
// (src/lib/session/session.ts); this module only reads it.
import { registrationNumber, SUPER_ADMIN_CANNOT_CREATE } from '../../../schemas/ids';
import type { LookupItem } from '../../../schemas/entities/users';
import { getToken, type SessionUser } from '../session';
import type { HttpClient, LookupLists } from './types';

export const LISTS_KEY = 'lists';

function isItem(value: unknown): value is LookupItem {
  const v = value as Partial<LookupItem> | null;
  return typeof v === 'object' && v !== null && typeof v.id === 'number';
}

/** Keeps only arrays of items: the key is shared with older builds and can hold anything. */
export function toLookupLists(value: unknown): LookupLists | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value).filter((e): e is [string, unknown[]] => Array.isArray(e[1]));
  return Object.fromEntries(entries.map(([key, items]) => [key, items.filter(isItem)]));
}

export function getCachedLists(): LookupLists | null {
  try {
    const raw = localStorage.getItem(LISTS_KEY);
    return raw ? toLookupLists(JSON.parse(raw)) : null;
  } catch {
    return null; // storage disabled or corrupt: as if nothing was cached
  }
}

/** Window event telling open forms that the cached lists changed (ADR-0030). Other tabs hear
 * the `storage` event of the same key. */
export const LISTS_CHANGED_EVENT = 'icrs:lists-changed';

export function saveLists(lists: LookupLists): void {
  const text = JSON.stringify(lists);
  try {
    if (localStorage.getItem(LISTS_KEY) === text) return; // nothing new: open forms keep their state
    localStorage.setItem(LISTS_KEY, text);
  } catch {
    // Quota or disabled storage: forms still get the lists online for this page.
  }
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(LISTS_CHANGED_EVENT));
}

/** Fetches the form lists (GET /api/lists/profilelist) and caches them; the cached copy
 * when offline. The lead calls it after sign-in and whenever the app comes online. */
export async function refreshLists(http: HttpClient, online = true): Promise<LookupLists | null> {
  if (!online) return getCachedLists();
  const session = getToken();
  const { data } = await http.get<unknown>('/lists/profilelist', { silent: true });
  const lists = toLookupLists(data);
  // An answer that arrives after a logout (or a change of user) is not cached: logout clears
  // the lists (product.md §4), and a request still in flight must not put them back.
  if (lists && session !== null && getToken() === session) saveLists(lists);
  return lists;
}

/** The abbreviation of the user's organisation (`location` is an `organisation` item id). */
export function organisationAbbr(user: SessionUser | null, lists: LookupLists | null): string | undefined {
  if (!user?.location) return undefined;
  return lists?.organisation?.find((item) => item.id === user.location)?.abbr || undefined;
}

/** A new profile's registration number (product.md §5); throws 'Error Saving Super admin cannot
 * create' when the user's organisation has no abbreviation. */
export function newRegistrationNumber(user: SessionUser | null, lists: LookupLists | null): string {
  const abbr = organisationAbbr(user, lists);
  if (!abbr) throw new Error(SUPER_ADMIN_CANNOT_CREATE);
  return registrationNumber(abbr);
}
