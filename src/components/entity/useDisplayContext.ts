// What every schema-driven view needs to show a value: the user's language, the cached lookup
// lists and the translator.
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import type { DisplayContext, Translate } from './fields';
import { langOf, useLookupLists } from './lookups';

export function useDisplayContext(): DisplayContext {
  const intl = useIntl();
  const lists = useLookupLists();
  return useMemo(() => {
    const t: Translate = (id, values) => intl.formatMessage({ id }, values);
    return { lang: langOf(intl.locale), lists, t };
  }, [intl, lists]);
}
