// Whether the browser has a network, read once or live: one rule for the upload engine, the
// offline indicator and the screens whose calls only the server can answer. And whether the app
// works online (the session's mode and the network), apart from the store's code, so the app's
// start can ask it.
import { useEffect, useState } from 'react';
import { getMode } from './session';

/** The browser's network state now (true where there is no browser to ask). */
export function browserOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/** The browser's network state, live. */
export function useNetworkOnline(): boolean {
  const [online, setOnline] = useState(browserOnline);
  useEffect(() => {
    const update = () => setOnline(browserOnline());
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/** Saves go to the API in online mode while the browser has a network. */
export function appIsOnline(): boolean {
  return getMode() === 'online' && browserOnline();
}
