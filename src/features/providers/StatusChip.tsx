// A service's verification status as a chip: pending, verified or rejected (spec §4 "Service
// detail review"), with the schema's enum labels in the user's language.
import { Chip } from '@mui/material';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import HighlightOffIcon from '@mui/icons-material/HighlightOff';
import VerifiedIcon from '@mui/icons-material/Verified';
import { useIntl } from 'react-intl';

const LOOK = {
  0: { name: 'pending', color: 'default', icon: <HourglassEmptyIcon /> },
  1: { name: 'verified', color: 'success', icon: <VerifiedIcon /> },
  2: { name: 'rejected', color: 'error', icon: <HighlightOffIcon /> },
} as const;

export function StatusChip({ status }: { status: unknown }) {
  const intl = useIntl();
  const look = LOOK[Number(status) as keyof typeof LOOK] ?? LOOK[0];
  return (
    <Chip
      size="small"
      variant="outlined"
      color={look.color}
      icon={look.icon}
      label={intl.formatMessage({ id: `enum.service.status.${look.name}` })}
      data-testid={`status-${look.name}`}
      // The palette's main shades are too light on a dark paper (and red too on white) for
      // small text: the darker one by day, the lighter one by night.
      sx={look.color === 'default' ? undefined : (theme) => {
        const palette = theme.palette[look.color];
        const shade = theme.palette.mode === 'dark' ? palette.light : palette.dark;
        return { color: shade, borderColor: shade, '& .MuiChip-icon': { color: shade } };
      }}
    />
  );
}
