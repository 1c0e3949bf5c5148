import { useState } from 'react';
import { getUser, type SessionUser } from '../lib/session';

/**
 * The signed-in user for this page load. Login and logout both reload the page (product.md §4),
 * so reading storage once per mount is enough.
 */
export function useSessionUser(): SessionUser | null {
  const [user] = useState(getUser);
  return user;
}
