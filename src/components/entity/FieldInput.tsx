// One input per field kind: text (multiline for long texts), number, date, switch, lookup
// autocomplete (active items in the user's language), enum select. The form owns the value
// and the message; this only draws them.
import {
  Autocomplete,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Switch,
  TextField,
} from '@mui/material';
import type { EntityShape, Field } from '../../../schemas/define';
import { dateBounds, localToday } from '../../../schemas/dates';
import { DAY_MAX, DAY_MIN } from '../../lib/ui';
import { DayField } from '../DayField';
import { enumOptions, type DisplayContext } from './fields';
import { isQuestion } from './formState';
import { lookupOptions, type Option } from './lookups';
import { LookupMultiSelect } from './LookupMultiSelect';

/** Texts longer than this get a multi-line box. */
export const MULTILINE_FROM = 300;

export function isWide(field: Field): boolean {
  return (field.kind === 'string' && field.maxLength > MULTILINE_FROM) || field.kind === 'json';
}

export interface FieldInputProps {
  entity: EntityShape;
  name: string;
  field: Field;
  id: string;
  label: string;
  value: unknown;
  error?: string;
  disabled?: boolean;
  ctx: DisplayContext;
  onChange: (value: unknown) => void;
  onBlur: () => void;
}

function textInputType(field: Field): { type: string; inputMode?: 'email' | 'tel' | 'decimal' | 'numeric' } {
  if (field.kind === 'string' && field.format === 'date-time') return { type: 'datetime-local' };
  if (field.kind === 'string' && field.format === 'email') return { type: 'email', inputMode: 'email' };
  if (field.kind === 'string' && field.format === 'phone') return { type: 'tel', inputMode: 'tel' };
  if (field.kind === 'integer') return { type: 'number', inputMode: 'numeric' };
  if (field.kind === 'number' || field.kind === 'lat' || field.kind === 'lng') return { type: 'number', inputMode: 'decimal' };
  return { type: 'text' };
}

function numberBounds(field: Field): Record<string, number | string> {
  if (field.kind === 'integer') return { min: field.minimum, max: field.maximum, step: 1 };
  if (field.kind === 'number') return { min: field.minimum, max: field.maximum, step: 'any' };
  if (field.kind === 'lat') return { min: -90, max: 90, step: 'any' };
  if (field.kind === 'lng') return { min: -180, max: 180, step: 'any' };
  return {};
}

/** datetime-local wants local 'YYYY-MM-DDTHH:MM'; records hold ISO instants. */
function toLocalInput(value: unknown): string {
  if (typeof value !== 'string' || !value.includes('T') || value.length === 16) return typeof value === 'string' ? value : '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function counter(field: Field, value: unknown): string | undefined {
  if (!isWide(field) || field.kind !== 'string') return undefined;
  return `${[...String(value ?? '')].length} / ${field.maxLength}`;
}

/** A day: the app's date field, in the interface's order, bounded by the field's declared range. */
function DayInput({ field, id, label, value, error, disabled, onChange, onBlur }: FieldInputProps) {
  const bounds = field.kind === 'string' && field.range ? dateBounds(field.range, localToday()) : { min: DAY_MIN, max: DAY_MAX };
  return (
    <DayField
      id={id}
      label={label}
      value={typeof value === 'string' ? value : ''}
      required={field.required}
      disabled={disabled}
      error={error}
      fullWidth
      keepInvalid
      min={bounds.min}
      max={bounds.max}
      onChange={onChange}
      onBlur={onBlur}
    />
  );
}

function TextInput(props: FieldInputProps) {
  if (props.field.kind === 'string' && props.field.format === 'date') return <DayInput {...props} />;
  return <PlainTextInput {...props} />;
}

function PlainTextInput({ field, id, label, value, error, disabled, onChange, onBlur }: FieldInputProps) {
  const { type, inputMode } = textInputType(field);
  const wide = isWide(field);
  const shown = field.kind === 'string' && field.format === 'date-time' ? toLocalInput(value) : String(value ?? '');
  return (
    <TextField
      id={id}
      label={label}
      type={type}
      value={shown}
      required={field.required}
      disabled={disabled}
      error={Boolean(error)}
      helperText={error ?? counter(field, value)}
      multiline={wide}
      minRows={wide ? 3 : undefined}
      fullWidth
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
      slotProps={{
        // Date inputs always show their own placeholder: the label must not sit on top of it.
        inputLabel: type === 'datetime-local' ? { shrink: true } : undefined,
        htmlInput: { inputMode, ...numberBounds(field) },
      }}
    />
  );
}

function SwitchInput({ field, id, label, value, error, disabled, onChange, onBlur }: FieldInputProps) {
  return (
    <FormControl error={Boolean(error)} disabled={disabled}>
      <FormControlLabel
        control={<Switch id={id} checked={value === true} onChange={(event) => onChange(event.target.checked)} onBlur={onBlur} />}
        label={field.required ? `${label} *` : label}
      />
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}

/** Yes or no, neither chosen at first. A question the user must answer (consent) has those two;
 * an optional one a third, "Not answered", to take an answer back. */
function YesNoInput({ field, id, label, value, error, disabled, ctx, onChange, onBlur }: FieldInputProps) {
  const shown = value === true ? 'yes' : value === false ? 'no' : 'unanswered';
  return (
    <FormControl error={Boolean(error)} disabled={disabled} required={field.required}>
      <FormLabel id={`${id}-label`}>{label}</FormLabel>
      <RadioGroup
        row
        aria-labelledby={`${id}-label`}
        name={id}
        value={shown}
        onChange={(event) => onChange(event.target.value === 'unanswered' ? null : event.target.value === 'yes')}
        onBlur={onBlur}
      >
        <FormControlLabel value="yes" control={<Radio id={id} />} label={ctx.t('entityGrid.yes')} />
        <FormControlLabel value="no" control={<Radio />} label={ctx.t('entityGrid.no')} />
        {!field.required && <FormControlLabel value="unanswered" control={<Radio />} label={ctx.t('entityForm.unanswered')} />}
      </RadioGroup>
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}

function LookupInput({ field, id, label, value, error, disabled, ctx, onChange, onBlur }: FieldInputProps) {
  if (field.kind !== 'lookup') return null;
  // 0 is "none" where the field allows it (a user without an organisation): an empty box, not "#0".
  const number = value === null || value === undefined || value === '' ? null : Number(value);
  const current = field.allowNone && number === 0 ? null : number;
  const options = lookupOptions(ctx.lists, field.list, ctx.lang, { activeOnly: true, keep: current });
  const selected = options.find((o) => o.value === current) ?? null;
  return (
    <Autocomplete<Option<number>>
      id={id}
      options={options}
      value={selected}
      disabled={disabled}
      autoHighlight
      getOptionLabel={(option) => option.label}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      onChange={(_event, option) => onChange(option ? option.value : field.allowNone ? 0 : null)}
      onBlur={onBlur}
      noOptionsText={ctx.t('entityForm.noOptions')}
      renderInput={(params) => <TextField {...params} label={label} required={field.required} error={Boolean(error)} helperText={error} />}
    />
  );
}

/** Several items of a lookup list (a client's skills): stored as their ids. */
function LookupListInput({ field, id, label, value, error, disabled, ctx, onChange, onBlur }: FieldInputProps) {
  if (field.kind !== 'json' || !field.itemsOf) return null;
  const ids = Array.isArray(value) ? value.map(Number) : [];
  return (
    <LookupMultiSelect
      id={id}
      list={field.itemsOf}
      value={ids}
      onChange={onChange}
      label={label}
      ctx={ctx}
      disabled={disabled}
      required={field.required}
      error={error}
      onBlur={onBlur}
    />
  );
}

// Select values are strings; JSON keeps the enum's numbers numbers.
function EnumInput({ entity, name, field, id, label, value, error, disabled, ctx, onChange, onBlur }: FieldInputProps) {
  const options = enumOptions(entity, name, ctx.t);
  const shown = value === null || value === undefined || value === '' ? '' : JSON.stringify(value);
  return (
    <TextField
      id={id}
      select
      label={label}
      value={shown}
      required={field.required}
      disabled={disabled}
      error={Boolean(error)}
      helperText={error}
      fullWidth
      onChange={(event) => onChange(event.target.value === '' ? null : (JSON.parse(event.target.value) as unknown))}
      onBlur={onBlur}
    >
      {!field.required && (
        <MenuItem value="">
          <em>{ctx.t('entityForm.none')}</em>
        </MenuItem>
      )}
      {options.map((option) => (
        <MenuItem key={String(option.value)} value={JSON.stringify(option.value)}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function FieldInput(props: FieldInputProps) {
  switch (props.field.kind) {
    case 'boolean':
      return isQuestion(props.field) ? <YesNoInput {...props} /> : <SwitchInput {...props} />;
    case 'lookup':
      return <LookupInput {...props} />;
    case 'enum':
      return <EnumInput {...props} />;
    case 'json':
      return <LookupListInput {...props} />;
    case 'id':
    case 'image':
      return null; // keys and parents ride along hidden; images and structured data have their own parts
    default:
      return <TextInput {...props} />;
  }
}
