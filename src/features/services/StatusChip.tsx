// Verification status of a service (docs/api.md: 0 pending, 1 verified, 2 rejected) as a
// coloured chip, and the chips that filter the list by it.
import { Box, Chip, Typography } from '@mui/material';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import HighlightOffIcon from '@mui/icons-material/HighlightOff';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import { useId } from 'react';
import { useIntl } from 'react-intl';

export const STATUS = { pending: 0, verified: 1, rejected: 2 } as const;
export type StatusValue = (typeof STATUS)[keyof typeof STATUS];

const LOOK = {
  0: { name: 'pending', color: 'warning', icon: <HourglassEmptyIcon /> },
  1: { name: 'verified', color: 'success', icon: <CheckCircleOutlineIcon /> },
  2: { name: 'rejected', color: 'error', icon: <HighlightOffIcon /> },
} as const;

/** MUI's warning orange under white text is below the WCAG AA contrast: the pending chip
 * takes the lighter orange with dark text instead, in both themes. */
export const WARNING_FILLED_SX = {
  '&.MuiChip-colorWarning': { bgcolor: 'warning.light', color: 'rgba(0, 0, 0, 0.87)' },
  '&.MuiChip-colorWarning .MuiChip-icon': { color: 'inherit' },
} as const;

/** An outlined warning chip with readable text (the orange stays on the border). */
export const WARNING_OUTLINED_SX = { color: 'text.primary', borderColor: 'warning.main' } as const;

function lookOf(status: unknown) {
  return LOOK[(status === 1 || status === 2 ? status : 0) as StatusValue];
}

export function StatusChip({ status, size = 'medium' }: { status: unknown; size?: 'small' | 'medium' }) {
  const intl = useIntl();
  const look = lookOf(status);
  return (
    <Chip
      size={size}
      color={look.color}
      icon={look.icon}
      label={intl.formatMessage({ id: `enum.service.status.${look.name}` })}
      data-testid="status-chip"
      data-status={look.name}
      sx={WARNING_FILLED_SX}
    />
  );
}

/** All / pending / verified / rejected: one pressed at a time (toggle buttons in chip form). */
export function StatusFilter({ value, onChange }: { value: StatusValue | undefined; onChange: (value: StatusValue | undefined) => void }) {
  const intl = useIntl();
  const labelId = useId();
  const options: { value: StatusValue | undefined; label: string }[] = [
    { value: undefined, label: intl.formatMessage({ id: 'services.list.allStatuses' }) },
    ...([0, 1, 2] as const).map((s) => ({ value: s, label: intl.formatMessage({ id: `enum.service.status.${LOOK[s].name}` }) })),
  ];
  return (
    <Box role="group" aria-labelledby={labelId} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
      <Typography id={labelId} variant="body2" color="text.secondary">
        {intl.formatMessage({ id: 'field.service.status' })}
      </Typography>
      {options.map((option) => {
        const pressed = option.value === value;
        const look = option.value === undefined ? null : LOOK[option.value];
        return (
          <Chip
            key={option.label}
            label={option.label}
            icon={look?.icon}
            color={pressed ? (look?.color ?? 'primary') : 'default'}
            variant={pressed ? 'filled' : 'outlined'}
            aria-pressed={pressed}
            onClick={() => onChange(option.value)}
            sx={pressed ? WARNING_FILLED_SX : undefined}
            data-testid={`status-filter-${look?.name ?? 'all'}`}
          />
        );
      })}
    </Box>
  );
}
