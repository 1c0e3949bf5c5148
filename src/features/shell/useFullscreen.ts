import { useCallback, useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  document.addEventListener('fullscreenchange', onChange);
  return () => document.removeEventListener('fullscreenchange', onChange);
}

const isFullscreen = () => document.fullscreenElement !== null;

/** Fullscreen toggle of the top bar; `supported` is false on browsers without the API (iOS). */
export function useFullscreen() {
  const active = useSyncExternalStore(subscribe, isFullscreen, () => false);
  const supported = typeof document !== 'undefined' && document.fullscreenEnabled === true;
  const toggle = useCallback(() => {
    const request = active ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    request.catch((error: unknown) => console.warn('Fullscreen refused:', error));
  }, [active]);
  return { supported, active, toggle };
}
