// Whether calls that only the server can answer (verification, deletion) can be made now: the
// app is in online mode and the browser has a network. Re-renders when either changes.
import { usePreferences } from './PreferencesProvider';
import { useNetworkOnline } from '../lib/session';

export function useConnected(): boolean {
  const { mode } = usePreferences();
  const network = useNetworkOnline();
  return mode === 'online' && network;
}
