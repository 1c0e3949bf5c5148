// Text for screen readers only: it takes part in an element's accessible name (a count beside a
// badge, "My profile" before a user name) while the screen shows the shorter form.
import { Box } from '@mui/material';
import type { ReactNode } from 'react';

const HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  p: 0,
  m: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

export function VisuallyHidden({ children }: { children: ReactNode }) {
  return (
    <Box component="span" sx={HIDDEN}>
      {children}
    </Box>
  );
}
