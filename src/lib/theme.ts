import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeName } from './session';

const BRAND = '#1e3a5f'; // same colour as the PWA manifest theme_color

/** Day and dark themes (spec §4). Dark mode darkens the page and, through MUI, the top bar. */
export function createAppTheme(name: ThemeName): Theme {
  return createTheme({
    palette: {
      mode: name,
      primary: { main: name === 'dark' ? '#90caf9' : BRAND },
      ...(name === 'dark' ? { background: { default: '#121212', paper: '#1d1d1d' } } : {}),
    },
    components: {
      MuiAppBar: { defaultProps: { elevation: 1 } },
    },
  });
}
