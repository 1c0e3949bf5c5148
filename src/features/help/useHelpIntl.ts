import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { type AppIntl, buildIntl, type Lang, loadMessages } from '../../lib/session';

/**
 * help/en and help/fr each show their own language whatever the interface language is, so the
 * help text is read from that language's catalog (loaded on demand, then cached).
 */
export function useHelpIntl(lang: Lang): AppIntl | 'loading' | 'failed' {
  const appIntl = useIntl();
  const same = appIntl.locale === lang;
  const [loaded, setLoaded] = useState<{ lang: Lang; intl: AppIntl | 'failed' } | null>(null);
  useEffect(() => {
    if (same) return;
    let cancelled = false;
    loadMessages(lang)
      .then((messages) => !cancelled && setLoaded({ lang, intl: buildIntl(lang, messages) }))
      .catch((error: unknown) => {
        console.warn('Help catalog unavailable:', error);
        if (!cancelled) setLoaded({ lang, intl: 'failed' });
      });
    return () => {
      cancelled = true;
    };
  }, [lang, same]);
  if (same) return appIntl;
  return loaded?.lang === lang ? loaded.intl : 'loading';
}
