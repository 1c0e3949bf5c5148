// Who collected the records still waiting on this device. The store itself is shared by every
// user of the browser, so the signed-in app keeps a small summary under `icrs.unsent`:
// - the login screen reads it (no database opened) to warn before someone else signs in;
// - after sign-in, a different user is asked to confirm before taking the records over.
import type { SessionUser } from '../../lib/session';

const KEY = 'icrs.unsent';

export interface UnsentSummary {
  userId: string;
  userName: string;
  count: number;
}

export function readUnsent(): UnsentSummary | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<UnsentSummary>;
    if (typeof v.userId !== 'string' || typeof v.userName !== 'string' || typeof v.count !== 'number') return null;
    return { userId: v.userId, userName: v.userName, count: v.count };
  } catch {
    return null;
  }
}

export function writeUnsent(user: SessionUser, count: number): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ userId: user.userId, userName: user.userName, count } satisfies UnsentSummary));
  } catch {
    // Storage full or disabled: the post-sign-in check still reads the database itself.
  }
}

/**
 * What the signed-in user must be asked when the device holds `count` unsent records:
 * `null` when nothing (none pending, or they are the user's own); else the previous owner.
 */
export function foreignOwner(user: SessionUser, count: number, summary = readUnsent()): UnsentSummary | null {
  if (count === 0 || !summary) return null;
  return summary.userId === user.userId ? null : { ...summary, count };
}
