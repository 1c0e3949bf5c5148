// ThemeProvider (a theme made by createTheme, as the app's) and CssBaseline around a step.
import { CssBaseline, ThemeProvider, createTheme } from '@mui/material';
import type { ReactNode } from 'react';

const theme = createTheme({ palette: { primary: { main: '#1e3a5f' } } });

export function Themed({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}
