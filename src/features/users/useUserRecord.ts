// One user record read from the API, with its loading state and a way to reload it.
import { useEffect, useState } from 'react';
import { messageOf } from '../../components/entity';
import { conflictCopy, fetchUser, type UserRow } from './usersApi';

/** Saves with `save`; on a conflict, takes the server's copy as the new base (the form keeps
 * what the user typed, so saving again keeps their values) and says so in `message`. */
export async function saveOverConflict(
  save: () => Promise<UserRow>,
  onServerCopy: (row: UserRow) => void,
  message: string,
): Promise<UserRow> {
  try {
    return await save();
  } catch (error) {
    const server = conflictCopy(error);
    if (!server) throw error;
    onServerCopy(server);
    throw new Error(message, { cause: error });
  }
}

/** A loaded user, or the spinner / the error of its loading. */
export function useUserRecord(userId: string) {
  const [state, setState] = useState<{ id: string; row?: UserRow; error?: string } | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    fetchUser(userId).then(
      (row) => current && setState({ id: userId, row }),
      (error: unknown) => current && setState({ id: userId, error: messageOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [userId, attempt]);
  const loaded = state?.id === userId ? state : null;
  return {
    row: loaded?.row,
    error: loaded?.error,
    loading: !loaded,
    reload: () => setAttempt((n) => n + 1),
    set: (row: UserRow) => setState({ id: userId, row }),
  };
}
