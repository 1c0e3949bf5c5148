// Whether the app works online: apart from the store's code, so the app's start can ask it.
import { getMode } from '../session';

/** Saves go to the API in online mode while the browser has a network. */
export function appIsOnline(): boolean {
  return getMode() === 'online' && (typeof navigator === 'undefined' || navigator.onLine !== false);
}
