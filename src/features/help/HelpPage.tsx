import { Navigate, useParams } from 'react-router';
import { Alert } from '@mui/material';
import { RawIntlProvider } from 'react-intl';
import { FullPageSpinner, usePreferences } from '../../components';
import { isLang, type Lang, useSay } from '../../lib/session';
import { HelpContent } from './HelpContent';
import { useHelpIntl } from './useHelpIntl';

/** '/help' opens the help in the interface language. */
export function HelpIndex() {
  const { lang } = usePreferences();
  return <Navigate to={`/help/${lang}`} replace />;
}

/** help/en and help/fr (product.md §2): public pages. */
export function HelpPage() {
  const { lang } = useParams();
  if (!isLang(lang)) return <Navigate to="/not-found" replace />;
  return <HelpInLanguage lang={lang} />;
}

function HelpInLanguage({ lang }: { lang: Lang }) {
  const say = useSay();
  const helpIntl = useHelpIntl(lang);
  if (helpIntl === 'loading') return <FullPageSpinner label={say('common.loading')} />;
  if (helpIntl === 'failed') return <Alert severity="error">{say('help.unavailable')}</Alert>;
  return (
    <RawIntlProvider value={helpIntl}>
      <HelpContent lang={lang} other={lang === 'fr' ? 'en' : 'fr'} />
    </RawIntlProvider>
  );
}
