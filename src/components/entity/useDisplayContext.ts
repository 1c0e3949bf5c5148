// What every schema-driven view needs to show a value: the user's language, the cached lookup
// lists and the translator.
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { useSay } from '../../lib/session';
import type { DisplayContext } from './fields';
import { langOf, useLookupLists } from './lookups';

export function useDisplayContext(): DisplayContext {
  const intl = useIntl();
  const lists = useLookupLists();
  const t = useSay();
  return useMemo(() => ({ lang: langOf(intl.locale), lists, t }), [intl.locale, lists, t]);
}
