import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

interface PageProps {
  title: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
}

/** Common frame of a screen: one h1 (for screen readers and tests) and the content below. */
export function Page({ title, children, actions }: PageProps) {
  return (
    <Box component="section" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        {actions}
      </Box>
      {children}
    </Box>
  );
}
