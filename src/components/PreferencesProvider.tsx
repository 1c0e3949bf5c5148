// Device preferences (product.md §3 keys theme, mode, lang): stored, restored at start, and shared by
// the shell and the screens. Theme and mode change in place; a language change reloads (product.md §4).
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { barColour, createAppTheme } from '../lib/ui';
import {
  getLang,
  getMode,
  getThemeName,
  setLang as storeLang,
  setMode as storeMode,
  setThemeName,
  type Lang,
  type Mode,
  type ThemeName,
} from '../lib/session';

export interface Preferences {
  lang: Lang;
  mode: Mode;
  themeName: ThemeName;
  setLang: (lang: Lang) => void;
  setMode: (mode: Mode) => void;
  setThemeName: (theme: ThemeName) => void;
}

const PreferencesContext = createContext<Preferences | null>(null);

export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [lang] = useState(getLang);
  const [mode, setModeState] = useState(getMode);
  const [themeName, setThemeState] = useState(getThemeName);

  const setLang = useCallback((next: Lang) => {
    storeLang(next);
    window.location.reload(); // catalogs are loaded once at start
  }, []);
  const setMode = useCallback((next: Mode) => {
    storeMode(next);
    setModeState(next);
  }, []);
  const setTheme = useCallback((next: ThemeName) => {
    setThemeName(next);
    setThemeState(next);
  }, []);

  const theme = useMemo(() => createAppTheme(themeName), [themeName]);
  useEffect(() => {
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', barColour(themeName));
  }, [themeName]);
  const value = useMemo(
    () => ({ lang, mode, themeName, setLang, setMode, setThemeName: setTheme }),
    [lang, mode, themeName, setLang, setMode, setTheme],
  );

  return (
    <PreferencesContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </PreferencesContext.Provider>
  );
}

export function usePreferences(): Preferences {
  const value = useContext(PreferencesContext);
  if (!value) throw new Error('usePreferences needs <PreferencesProvider>');
  return value;
}
