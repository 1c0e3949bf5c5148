import { useNavigate } from 'react-router';
import { usePreferences } from '../../components';
import { useFullscreen } from './useFullscreen';
import { useStoreSupport } from './useStoreSupport';

/**
 * The top-bar behaviours (product.md §2, §4), shared by the inline bar and the phone overflow menu.
 * `logout` is the caller's: it warns first when unsent records exist (offline feature).
 */
export function useShellActions(logout: () => void) {
  const navigate = useNavigate();
  const prefs = usePreferences();
  const fullscreen = useFullscreen();
  const offline = prefs.mode === 'offline';
  const storeSupported = useStoreSupport();
  return {
    offline,
    /** product.md §2 "if supported": the switch shows where the browser can keep the store, and always
     * while offline (the way back online). */
    offlineSwitch: offline || storeSupported === true,
    dark: prefs.themeName === 'dark',
    lang: prefs.lang,
    fullscreen,
    toggleOffline() {
      // product.md §4: offline stores the mode and opens the offline home; online returns home.
      prefs.setMode(offline ? 'online' : 'offline');
      navigate(offline ? '/' : '/offlinehp');
    },
    toggleTheme() {
      prefs.setThemeName(prefs.themeName === 'dark' ? 'light' : 'dark');
    },
    setLang: prefs.setLang,
    logout,
  };
}

export type ShellActions = ReturnType<typeof useShellActions>;
