// Amber marks ("not uploaded", "deadline passed"), shared by lists, pages and the image picker. MUI's warning orange is too light for small
// text on white (3:1; WCAG AA asks 4.5:1): a darker amber in the light theme, the light one on
// the dark theme.
import { Chip } from '@mui/material';
import { useSay } from '../lib/session';

export function AmberChip({ label, testId }: { label: string; testId?: string }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      label={label}
      data-testid={testId}
      sx={(theme) => ({ color: theme.palette.mode === 'dark' ? theme.palette.warning.light : '#8a4b00', borderColor: 'currentColor' })}
    />
  );
}

/** Saved on this device only, waiting for the upload. */
export function NotUploadedChip() {
  const say = useSay();
  return <AmberChip label={say('entityGrid.notUploaded')} testId="not-uploaded" />;
}
