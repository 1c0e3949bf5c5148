// A day picked with the browser's date input ('YYYY-MM-DD'), its label always above it.
import { TextField, type SxProps, type Theme } from '@mui/material';

interface DateFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  required?: boolean;
  size?: 'small' | 'medium';
  testId?: string;
  sx?: SxProps<Theme>;
}

export function DateField({ label, value, onChange, error, required, size, testId, sx }: DateFieldProps) {
  return (
    <TextField
      type="date"
      size={size}
      required={required}
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={Boolean(error)}
      helperText={error}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: testId ? { 'data-testid': testId } : undefined }}
      sx={sx}
    />
  );
}
