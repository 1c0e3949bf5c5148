import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeName } from '../session';

const BRAND = '#1e3a5f'; // same colour as the PWA manifest theme_color
/** The dark theme's top bar (MUI's dark app bar: the paper colour). */
const DARK_BAR = '#1d1d1d';

/** The colour the browser and the installed app's title bar take (meta theme-color): the top
 * bar's, so the window's frame follows the day/dark switch. */
export function barColour(name: ThemeName): string {
  return name === 'dark' ? DARK_BAR : BRAND;
}

/** Day and dark themes (product.md §4). Dark mode darkens the page and, through MUI, the top bar. */
export function createAppTheme(name: ThemeName): Theme {
  return createTheme({
    palette: {
      mode: name,
      primary: { main: name === 'dark' ? '#90caf9' : BRAND },
      ...(name === 'dark' ? { background: { default: '#121212', paper: DARK_BAR } } : {}),
    },
    components: {
      MuiAppBar: { defaultProps: { elevation: 1 } },
    },
  });
}
