// Whether calls that only the server can answer (verification, deletion) can be made now: the
// app is in online mode and the browser has a network. Re-renders when either changes.
import { useEffect, useState } from 'react';
import { usePreferences } from '../../components';

function browserOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

export function useConnected(): boolean {
  const { mode } = usePreferences();
  const [network, setNetwork] = useState(browserOnline);
  useEffect(() => {
    const update = () => setNetwork(browserOnline());
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return mode === 'online' && network;
}
