// Labels and values of a record as people read them, in a description list that reflows on a
// phone (two columns from 600 px; long texts across).
import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

export interface DetailItem {
  name: string;
  label: string;
  value: ReactNode;
  wide?: boolean;
}

export function DetailList({ items, testId }: { items: readonly DetailItem[]; testId?: string }) {
  return (
    <Box
      component="dl"
      data-testid={testId}
      sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' }, columnGap: 3, rowGap: 1.5 }}
    >
      {items.map((item) => (
        <Box key={item.name} sx={{ gridColumn: item.wide ? '1 / -1' : undefined, minWidth: 0 }} data-field={item.name}>
          <Typography component="dt" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {item.label}
          </Typography>
          <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere', whiteSpace: item.wide ? 'pre-wrap' : undefined }}>
            {item.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
