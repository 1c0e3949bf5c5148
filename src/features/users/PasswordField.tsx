// A password input with a show/hide button, as on the sign-in screen.
import { useState, type ReactNode } from 'react';
import { IconButton, InputAdornment, TextField } from '@mui/material';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { useSay } from '../../lib/session';

export interface PasswordFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string;
  helperText?: ReactNode;
  autoComplete: 'current-password' | 'new-password';
  disabled?: boolean;
  describedBy?: string;
  autoFocus?: boolean;
}

export function PasswordField(props: PasswordFieldProps) {
  const say = useSay();
  const [shown, setShown] = useState(false);
  const toggle = say(shown ? 'auth.hidePassword' : 'auth.showPassword');
  return (
    <TextField
      id={props.id}
      label={props.label}
      type={shown ? 'text' : 'password'}
      value={props.value}
      required
      fullWidth
      autoFocus={props.autoFocus}
      disabled={props.disabled}
      autoComplete={props.autoComplete}
      error={Boolean(props.error)}
      helperText={props.error ?? props.helperText}
      onChange={(event) => props.onChange(event.target.value)}
      onBlur={props.onBlur}
      slotProps={{
        // Always above the field: inside it, beside the show button, a long label
        // ("Nouveau mot de passe (confirmation)") was cut on a phone.
        inputLabel: { shrink: true },
        htmlInput: { 'aria-describedby': props.describedBy, spellCheck: false, autoCapitalize: 'none' },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton aria-label={toggle} title={toggle} onClick={() => setShown((s) => !s)} edge="end">
                {shown ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
