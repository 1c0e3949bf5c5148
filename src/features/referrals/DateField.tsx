// A day of a referral's follow-up or list filter: the app's date field (components/DayField).
import type { SxProps, Theme } from '@mui/material';
import { DayField } from '../../components/DayField';
import { DAY_MAX, DAY_MIN } from '../../lib/ui';

interface DateFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  required?: boolean;
  size?: 'small' | 'medium';
  testId?: string;
  sx?: SxProps<Theme>;
  /** Give the typed text on when it is no day, for the form to refuse (DayField). */
  keepInvalid?: boolean;
}

export function DateField({ label, value, onChange, error, required, size, testId, sx, keepInvalid }: DateFieldProps) {
  return (
    <DayField
      size={size}
      required={required}
      label={label}
      value={value}
      onChange={onChange}
      error={error}
      testId={testId}
      sx={sx}
      keepInvalid={keepInvalid}
      min={DAY_MIN}
      max={DAY_MAX}
    />
  );
}
