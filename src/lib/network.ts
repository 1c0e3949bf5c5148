// Whether the browser has a network, read once or live: one rule for the upload engine, the
// offline indicator and the screens whose calls only the server can answer.
import { useEffect, useState } from 'react';

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
