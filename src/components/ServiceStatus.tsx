// Verification status of a service (docs/api.md: 0 pending, 1 verified, 2 rejected) as a
// coloured chip, and the chips that filter a list by it. Shared by the services screens and the
// providers' verification screens.
import { Box, Chip, Typography } from '@mui/material';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import HighlightOffIcon from '@mui/icons-material/HighlightOff';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import { useId, type ReactElement } from 'react';
import { SERVICE_STATUS, type ServiceStatusValue } from '../../schemas/index';
import { useSay } from '../lib/session';

const LOOK: Record<ServiceStatusValue, { name: string; color: 'warning' | 'success' | 'error'; icon: ReactElement }> = {
  [SERVICE_STATUS.pending]: { name: 'pending', color: 'warning', icon: <HourglassEmptyIcon /> },
  [SERVICE_STATUS.verified]: { name: 'verified', color: 'success', icon: <CheckCircleOutlineIcon /> },
  [SERVICE_STATUS.rejected]: { name: 'rejected', color: 'error', icon: <HighlightOffIcon /> },
};

/** MUI's warning orange under white text is below the WCAG AA contrast: the pending chip
 * takes the lighter orange with dark text instead, in both themes. */
export const WARNING_FILLED_SX = {
  '&.MuiChip-colorWarning': { bgcolor: 'warning.light', color: 'rgba(0, 0, 0, 0.87)' },
  '&.MuiChip-colorWarning .MuiChip-icon': { color: 'inherit' },
} as const;

/** The filled status chips: the warning rule above, and the dark theme's red (#f44336) is too
 * light under white text, so rejected takes the darker red in both themes. */
const STATUS_FILLED_SX = {
  ...WARNING_FILLED_SX,
  '&.MuiChip-colorError': { bgcolor: 'error.dark', color: '#fff' },
  '&.MuiChip-colorError .MuiChip-icon': { color: 'inherit' },
} as const;

/** An outlined warning chip with readable text (the orange stays on the border). */
export const WARNING_OUTLINED_SX = { color: 'text.primary', borderColor: 'warning.main' } as const;

function lookOf(status: unknown) {
  return LOOK[status === SERVICE_STATUS.verified || status === SERVICE_STATUS.rejected ? status : SERVICE_STATUS.pending];
}

export function ServiceStatusChip({ status, size = 'medium' }: { status: unknown; size?: 'small' | 'medium' }) {
  const say = useSay();
  const look = lookOf(status);
  return (
    <Chip
      size={size}
      color={look.color}
      icon={look.icon}
      label={say(`enum.service.status.${look.name}`)}
      data-testid="status-chip"
      data-status={look.name}
      sx={STATUS_FILLED_SX}
    />
  );
}

/** All / pending / verified / rejected: one pressed at a time (toggle buttons in chip form). */
export function ServiceStatusFilter({
  value,
  onChange,
}: {
  value: ServiceStatusValue | undefined;
  onChange: (value: ServiceStatusValue | undefined) => void;
}) {
  const say = useSay();
  const labelId = useId();
  const options: { value: ServiceStatusValue | undefined; label: string }[] = [
    { value: undefined, label: say('services.list.allStatuses') },
    ...Object.values(SERVICE_STATUS).map((s) => ({ value: s, label: say(`enum.service.status.${LOOK[s].name}`) })),
  ];
  return (
    <Box role="group" aria-labelledby={labelId} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
      <Typography id={labelId} variant="body2" color="text.secondary">
        {say('field.service.status')}
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
            sx={pressed ? STATUS_FILLED_SX : undefined}
            data-testid={`status-filter-${look?.name ?? 'all'}`}
          />
        );
      })}
    </Box>
  );
}
