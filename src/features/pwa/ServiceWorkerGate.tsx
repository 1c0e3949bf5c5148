import { useEffect, useState } from 'react';
import { SW_REGISTER_TIMEOUT_MS } from '../../lib/util';
import { UpdatePrompt } from './UpdatePrompt';

/**
 * product.md §9: register the service worker when the app is stable, or after 30 s at the latest.
 * "Stable" here is the first idle period after the page's load event: the worker's precache
 * download then never competes with the first screen's requests.
 */
function whenStable(callback: () => void): () => void {
  let idleId: number | undefined;
  const fallback = window.setTimeout(callback, SW_REGISTER_TIMEOUT_MS);
  const onIdle = () => {
    window.clearTimeout(fallback);
    callback();
  };
  const onLoad = () => {
    if ('requestIdleCallback' in window) idleId = window.requestIdleCallback(onIdle, { timeout: SW_REGISTER_TIMEOUT_MS });
    else onIdle();
  };
  if (document.readyState === 'complete') onLoad();
  else window.addEventListener('load', onLoad, { once: true });
  return () => {
    window.clearTimeout(fallback);
    window.removeEventListener('load', onLoad);
    if (idleId !== undefined) window.cancelIdleCallback(idleId);
  };
}

export function ServiceWorkerGate() {
  const [ready, setReady] = useState(false);
  useEffect(() => whenStable(() => setReady(true)), []);
  return ready && 'serviceWorker' in navigator ? <UpdatePrompt /> : null;
}
