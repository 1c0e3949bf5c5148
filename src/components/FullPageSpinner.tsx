import { Box, CircularProgress } from '@mui/material';

/** Shown while something the whole screen depends on is loading. */
export function FullPageSpinner({ label }: { label: string }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
      <CircularProgress aria-label={label} />
    </Box>
  );
}
