// The inputs of an entity's fields in a responsive grid (two columns from 600 px, long texts
// across), as EntityForm and the step forms draw them. The caller owns the values, the messages
// and what a change or a blur does.
import { Grid } from '@mui/material';
import type { EntityShape } from '../../../schemas/define';
import { fieldLabel, requireField, type DisplayContext } from './fields';
import { FieldInput, isWide } from './FieldInput';
import type { RawValues } from './validation';

export interface FieldGridProps {
  entity: EntityShape;
  /** Field names, in order. */
  fields: readonly string[];
  values: RawValues;
  /** Translated messages by field name. */
  errors: Readonly<Record<string, string>>;
  /** Prefix of the inputs' ids (`${idPrefix}-${name}`), so that a message can focus its field. */
  idPrefix: string;
  ctx: DisplayContext;
  disabled?: boolean;
  /** True while editing a stored record: immutable fields that have a value are read-only. */
  editing?: boolean;
  /** The stored record, for the immutable fields' stored values. */
  stored?: Readonly<Record<string, unknown>>;
  onChange: (name: string, value: unknown) => void;
  onBlur: (name: string) => void;
  /** Fields whose need depends on other values (a user's organisation, by role): marked
   * required (*) or not as given here rather than as declared. */
  required?: Readonly<Record<string, boolean>>;
}

export function FieldGrid({
  entity,
  fields,
  values,
  errors,
  idPrefix,
  ctx,
  disabled,
  editing,
  stored = {},
  onChange,
  onBlur,
  required = {},
}: FieldGridProps) {
  return (
    <Grid container spacing={2}>
      {fields.map((name) => {
        const declared = requireField(entity, name, 'FieldGrid');
        const field = required[name] === undefined ? declared : ({ ...declared, required: required[name] } as typeof declared);
        const locked = field.readOnly === true || (field.immutable === true && editing === true && stored[name] != null);
        return (
          <Grid key={name} size={{ xs: 12, sm: isWide(field) ? 12 : 6 }}>
            <FieldInput
              entity={entity}
              name={name}
              field={field}
              id={`${idPrefix}-${name}`}
              label={fieldLabel(entity, name, ctx.t)}
              value={values[name]}
              error={errors[name]}
              disabled={disabled === true || locked}
              ctx={ctx}
              onChange={(value) => onChange(name, value)}
              onBlur={() => onBlur(name)}
            />
          </Grid>
        );
      })}
    </Grid>
  );
}
