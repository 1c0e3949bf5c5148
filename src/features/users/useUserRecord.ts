// One user record read from the API, with its loading state and a way to reload it.
import { useEffect, useState } from 'react';
import { messageOf } from '../../components/entity';
import { fetchUser, type UserRow } from './usersApi';

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
  return { row: loaded?.row, error: loaded?.error, loading: !loaded, reload: () => setAttempt((n) => n + 1), set: (row: UserRow) => setState({ id: userId, row }) };
}

