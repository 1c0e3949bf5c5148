// The add/edit form of a provider: every field of the declaration (type 1-4, territory from the
// lookup lists, address, contact details), its position on a map or from the device, the
// server's validation rules and messages in the user's language, and a draft kept across a
// reload. The same form saves online (server) and offline (this device, uploaded later).
import { isAxiosError } from 'axios';
import { Box, Typography } from '@mui/material';
import { serviceProvider } from '../../../schemas/index';
import { EntityForm, messageOf, useLookupLists, type FormApi, type Problem } from '../../components/entity';
import { LocationPicker, defaultCenter } from '../../components/map';
import { ConflictError } from '../../lib/data';
import { isQuotaError, notify, showQuotaFull } from '../../lib/ui';
import { useSay } from '../../lib/session';
import { MAP_LINKS } from './mapLinks';

export const PROVIDER_FIELDS = ['sp_Name', 'sp_type', 'territory', 'sp_Address', 'contact', 'phone', 'email'];

const empty = (value: unknown) => value === null || value === undefined || value === '';

/** A position is both coordinates or none: one alone cannot be drawn or searched. */
export function coordinatePair(values: Record<string, unknown>): Record<string, Problem> {
  const problem = { id: 'providers.form.coordPair' };
  if (empty(values.lat) && !empty(values.lng)) return { lat: problem };
  if (!empty(values.lat) && empty(values.lng)) return { lng: problem };
  return {};
}

function LocationSection({ form }: { form: FormApi }) {
  const say = useSay();
  const lists = useLookupLists();
  const territory = Number(form.values.territory) || null;
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, display: 'flex', flexDirection: 'column', gap: 1, ...MAP_LINKS }}>
      <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 500, mb: 1 }}>
        {say('providers.form.location')}
      </Typography>
      <LocationPicker
        value={{ lat: form.values.lat as number | string | null | undefined, lng: form.values.lng as number | string | null | undefined }}
        onChange={(next) => {
          form.setValue('lat', next.lat);
          form.setValue('lng', next.lng);
        }}
        defaultCenter={defaultCenter(lists, territory)}
        errors={{ lat: form.errors.lat, lng: form.errors.lng }}
        disabled={form.saving}
        height={280}
      />
    </Box>
  );
}

export interface ProviderFormProps {
  /** The record being edited; absent for a new provider. */
  initial?: Readonly<Record<string, unknown>>;
  recordKey?: string;
  onSubmit: (values: Record<string, unknown>) => Promise<void>;
  onCancel: () => void;
  /** The server's copy changed meanwhile: the screen reloads it (the draft keeps the edit). */
  onConflict?: () => void;
}

/** The coordinates as form values even when empty: EntityForm keeps (and restores from a
 * draft) only the values it holds, and it holds an empty optional field only when given. */
function withCoordinates(initial: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return { ...initial, lat: initial.lat ?? '', lng: initial.lng ?? '' };
}

export function ProviderForm({ initial, recordKey, onSubmit, onCancel, onConflict }: ProviderFormProps) {
  const say = useSay();
  const onError = (error: unknown) => {
    if (error instanceof ConflictError) {
      notify.warning(say('providers.form.conflictTitle'), say('providers.form.conflict'));
      onConflict?.();
    } else if (isQuotaError(error)) {
      showQuotaFull();
    } else if (!isAxiosError(error)) {
      // API failures are already toasted by the app's interceptor; the store's are not.
      notify.error(say('providers.form.failedTitle'), messageOf(error));
    }
  };
  return (
    <EntityForm
      entity={serviceProvider}
      fields={PROVIDER_FIELDS}
      initialValues={withCoordinates(initial)}
      recordKey={recordKey}
      onSubmit={onSubmit}
      onCancel={onCancel}
      onError={onError}
      validate={coordinatePair}
    >
      {(form) => <LocationSection form={form} />}
    </EntityForm>
  );
}
