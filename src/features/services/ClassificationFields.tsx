// Category and service type of a service, side by side: the service types offered are those
// of the chosen category (the `parent` of the serviceType lookup items, docs/api.md), and
// choosing a type first fills in its category. Drawn in the form's extra content because the
// generic lookup input cannot narrow one list by another.
import { useState } from 'react';
import { Autocomplete, Grid, TextField } from '@mui/material';
import { useIntl } from 'react-intl';
import type { LookupItem } from '../../../schemas/entities/users';
import { langOf, lookupOptions, useLookupLists, type FormApi, type Option, type Problem } from '../../components/entity';
import type { LookupLists } from '../../lib/data';
import { useSay } from '../../lib/session';

function idOf(value: unknown): number | null {
  return value === null || value === undefined || value === '' ? null : Number(value);
}

function parentOf(lists: LookupLists | null, typeId: number | null): number | null {
  if (typeId === null) return null;
  const item: LookupItem | undefined = lists?.serviceType?.find((i) => i.id === typeId);
  return item?.parent ?? null;
}

/** A type with no parent fits every category. */
function fits(lists: LookupLists | null, typeId: number, category: number | null): boolean {
  const parent = parentOf(lists, typeId);
  return category === null || parent === null || parent === category;
}

/** Cross-field rule for EntityForm's `validate`: the type must belong to the category. */
export function classificationProblems(lists: LookupLists | null, values: Record<string, unknown>): Record<string, Problem> {
  const category = idOf(values.category);
  const type = idOf(values.serviceType);
  return type !== null && !fits(lists, type, category) ? { serviceType: { id: 'services.form.typeNotInCategory' } } : {};
}

interface SelectProps {
  id: string;
  label: string;
  options: Option<number>[];
  value: number | null;
  error?: string;
  helper?: string;
  disabled: boolean;
  onChange: (value: number | null) => void;
  onBlur: () => void;
  noOptionsText: string;
}

function LookupSelect({ id, label, options, value, error, helper, disabled, onChange, onBlur, noOptionsText }: SelectProps) {
  return (
    <Autocomplete<Option<number>>
      id={id}
      options={options}
      value={options.find((o) => o.value === value) ?? null}
      disabled={disabled}
      autoHighlight
      getOptionLabel={(o) => o.label}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      onChange={(_event, option) => onChange(option ? option.value : null)}
      onBlur={onBlur}
      noOptionsText={noOptionsText}
      renderInput={(params) => <TextField {...params} label={label} required error={Boolean(error)} helperText={error ?? helper} />}
    />
  );
}

export function ClassificationFields({ form, idPrefix }: { form: FormApi; idPrefix: string }) {
  const intl = useIntl();
  const lists = useLookupLists();
  const lang = langOf(intl.locale);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const say = useSay();
  const label = (name: string) => say(`field.service.${name}`);
  const category = idOf(form.values.category);
  const type = idOf(form.values.serviceType);

  const categoryOptions = lookupOptions(lists, 'category', lang, { activeOnly: true, keep: category });
  const typeOptions = lookupOptions(lists, 'serviceType', lang, { activeOnly: true, keep: type }).filter(
    (o) => o.value === type || fits(lists, o.value, category),
  );

  // The form shows a missing value once the field was left or a save tried; the same here.
  const message = (name: 'category' | 'serviceType', value: number | null) =>
    form.errors[name] ?? (touched[name] && value === null ? say('entityForm.error.required', { field: label(name) }) : undefined);

  const setCategory = (next: number | null) => {
    form.setValue('category', next);
    if (type !== null && next !== null && !fits(lists, type, next)) form.setValue('serviceType', null);
  };
  const setType = (next: number | null) => {
    form.setValue('serviceType', next);
    const parent = parentOf(lists, next);
    if (category === null && parent !== null) form.setValue('category', parent);
  };
  const blur = (name: string) => setTouched((t) => (t[name] ? t : { ...t, [name]: true }));

  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6 }}>
        <LookupSelect
          id={`${idPrefix}-category`}
          label={label('category')}
          options={categoryOptions}
          value={category}
          error={message('category', category)}
          disabled={form.saving}
          onChange={setCategory}
          onBlur={() => blur('category')}
          noOptionsText={say('entityForm.noOptions')}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <LookupSelect
          id={`${idPrefix}-serviceType`}
          label={label('serviceType')}
          options={typeOptions}
          value={type}
          error={message('serviceType', type)}
          helper={category === null ? say('services.form.typeHelpAll') : say('services.form.typeHelp')}
          disabled={form.saving}
          onChange={setType}
          onBlur={() => blur('serviceType')}
          noOptionsText={say('entityForm.noOptions')}
        />
      </Grid>
    </Grid>
  );
}

/** Fields of the form drawn by EntityForm itself, in order (the classification follows them). */
export const SERVICE_FORM_FIELDS = ['name', 'territory', 'description', 'eligibility', 'cost', 'hours'] as const;
