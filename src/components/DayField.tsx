// The app's one date field (docs/adr/0043-date-entry.md "Dates typed in the interface's order"): a text box
// that shows and takes the day as 'jj/mm/aaaa' in French and 'dd/mm/yyyy' in English, whatever
// the browser's own language, and gives 'YYYY-MM-DD' to its form. A calendar button opens the
// browser's picker for those who prefer one; what it picks is shown in the same order. It
// works offline and by keyboard alone: it is a text box.
import { useEffect, useRef, useState } from 'react';
import { IconButton, InputAdornment, TextField, type SxProps, type Theme } from '@mui/material';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonthOutlined';
import { useIntl } from 'react-intl';
import { dayPattern, dayText, formatDate, parseDay, withSlashes } from '../lib/ui';
import { useSay } from '../lib/session';

export interface DayFieldProps {
  id?: string;
  label: string;
  /** 'YYYY-MM-DD', '' when empty; in a form that keeps what was typed, that text. */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** The form's own message; wins over the field's. */
  error?: string;
  helperText?: string;
  required?: boolean;
  disabled?: boolean;
  size?: 'small' | 'medium';
  fullWidth?: boolean;
  testId?: string;
  sx?: SxProps<Theme>;
  /** The first and last days the field takes ('YYYY-MM-DD'). */
  min?: string;
  max?: string;
  /** A form that checks its values itself (entity forms, validation.ts) gets the typed text when
   * it is no day, so it refuses it; a filter gets '' and the field says what is wrong. */
  keepInvalid?: boolean;
}

export function DayField(props: DayFieldProps) {
  const { id, label, value, onChange, onBlur, error, helperText, required, disabled, size, fullWidth, testId, sx, min, max } = props;
  const intl = useIntl();
  const say = useSay();
  const lang = intl.locale.startsWith('en') ? 'en' : 'fr';
  const [text, setText] = useState(() => dayText(value));
  const [left, setLeft] = useState(false);
  const sent = useRef(value);
  const picker = useRef<HTMLInputElement>(null);

  // A value set from outside (a draft restored, filters cleared) replaces what is shown.
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(dayText(value));
    }
  }, [value]);

  const day = parseDay(text);
  const outside = day && ((min && day < min) || (max && day > max));
  const own =
    day === null
      ? say('dayField.invalid', { pattern: dayPattern(lang) })
      : outside
        ? say('entityForm.error.dateOutOfRange', { min: formatDate(min ?? '', lang), max: formatDate(max ?? '', lang) })
        : undefined;
  const shownError = error ?? (left || outside ? own : undefined);

  const take = (next: string) => {
    setText(next);
    const parsed = parseDay(next);
    const beyond = Boolean(parsed && ((min && parsed < min) || (max && parsed > max)));
    // A form that checks itself gets the day outside the range as a day, to say so in its words.
    const out = parsed === null ? (props.keepInvalid ? next : '') : beyond && !props.keepInvalid ? '' : parsed;
    if (out !== sent.current) {
      sent.current = out;
      onChange(out);
    }
  };

  return (
    <TextField
      id={id}
      label={label}
      value={text}
      required={required}
      disabled={disabled}
      size={size}
      fullWidth={fullWidth}
      error={Boolean(shownError)}
      helperText={shownError ?? helperText}
      placeholder={dayPattern(lang)}
      autoComplete="off"
      onChange={(event) => {
        setLeft(false);
        take(withSlashes(text, event.target.value));
      }}
      onBlur={() => {
        setLeft(true);
        onBlur?.();
      }}
      sx={sx}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { inputMode: 'numeric', maxLength: 10, ...(testId ? { 'data-testid': testId } : {}) },
        input: {
          endAdornment: (
            <InputAdornment position="end" sx={{ position: 'relative' }}>
              <IconButton
                edge="end"
                size="small"
                disabled={disabled}
                aria-label={say('dayField.calendar', { field: label })}
                onClick={() => {
                  const input = picker.current;
                  if (!input) return;
                  input.value = parseDay(text) || '';
                  try {
                    input.showPicker();
                  } catch {
                    input.focus();
                  }
                }}
              >
                <CalendarMonthIcon fontSize="small" />
              </IconButton>
              <input
                ref={picker}
                type="date"
                tabIndex={-1}
                aria-hidden="true"
                min={min}
                max={max}
                onChange={(event) => take(dayText(event.target.value))}
                style={{
                  position: 'absolute',
                  right: 0,
                  bottom: 0,
                  width: 1,
                  height: 1,
                  opacity: 0,
                  border: 0,
                  padding: 0,
                  pointerEvents: 'none',
                }}
              />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
