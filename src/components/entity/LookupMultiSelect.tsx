// Several items of one lookup list (a client's skills, the kinds of organisational help they
// get), as their ids: the list's active items in the user's language, and the ones chosen
// before even when deactivated since, so an edit never drops them behind the user's back.
import { Autocomplete, TextField } from '@mui/material';
import type { LookupKey } from '../../../schemas/define';
import type { DisplayContext } from './fields';
import { lookupLabel, lookupOptions, type Option } from './lookups';

export interface LookupMultiSelectProps {
  id: string;
  list: LookupKey;
  value: readonly number[];
  onChange: (ids: number[]) => void;
  label: string;
  ctx: DisplayContext;
  disabled?: boolean;
  required?: boolean;
  error?: string;
  helperText?: string;
  onBlur?: () => void;
}

export function LookupMultiSelect({
  id,
  list,
  value,
  onChange,
  label,
  ctx,
  disabled,
  required,
  error,
  helperText,
  onBlur,
}: LookupMultiSelectProps) {
  const options = lookupOptions(ctx.lists, list, ctx.lang, { activeOnly: true });
  for (const kept of value)
    if (!options.some((o) => o.value === kept)) options.push({ value: kept, label: lookupLabel(ctx.lists, list, kept, ctx.lang) });
  const selected = options.filter((o) => value.includes(o.value));
  return (
    <Autocomplete<Option<number>, true>
      id={id}
      multiple
      options={options}
      value={selected}
      disabled={disabled}
      autoHighlight
      disableCloseOnSelect
      getOptionLabel={(option) => option.label}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      onChange={(_event, chosen) => onChange(chosen.map((option) => option.value))}
      onBlur={onBlur}
      noOptionsText={ctx.t('entityForm.noOptions')}
      renderInput={(params) => (
        <TextField {...params} label={label} required={required} error={Boolean(error)} helperText={error ?? helperText} />
      )}
    />
  );
}
