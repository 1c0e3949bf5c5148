// Messages of the provider screens, read the same way everywhere in this feature.
import { useCallback } from 'react';
import { useIntl } from 'react-intl';

export type Say = (id: string, values?: Record<string, string | number>) => string;

/** `say('providers.page.edit')`: a message of the catalogue in the user's language. */
export function useSay(): Say {
  const intl = useIntl();
  return useCallback<Say>((id, values) => intl.formatMessage({ id }, values), [intl]);
}
