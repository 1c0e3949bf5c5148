import { Link as RouterLink } from 'react-router';
import { Box, Link, Typography } from '@mui/material';
import { useIntl } from 'react-intl';
import { Page } from '../../components';
import type { Lang } from '../../lib/session';

// Sections of the help text; each has a title and numbered paragraphs in the catalogs.
const SECTIONS: { id: string; paragraphs: number }[] = [
  { id: 'about', paragraphs: 2 },
  { id: 'signIn', paragraphs: 3 },
  { id: 'modes', paragraphs: 3 },
  { id: 'ask', paragraphs: 2 },
];

/** Rendered inside the help language's intl provider. */
export function HelpContent({ lang, other }: { lang: Lang; other: Lang }) {
  const intl = useIntl();
  const say = (id: string) => intl.formatMessage({ id });
  return (
    <Box component="article" lang={lang}>
      <Page
        title={say('help.title')}
        actions={
          <Link component={RouterLink} to={`/help/${other}`} lang={other}>
            {say('help.otherLanguage')}
          </Link>
        }
      >
        {SECTIONS.map((section) => (
          <Box component="section" key={section.id}>
            <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
              {say(`help.${section.id}.title`)}
            </Typography>
            {Array.from({ length: section.paragraphs }, (_, i) => (
              <Typography key={i} sx={{ mb: 1 }}>
                {say(`help.${section.id}.p${i + 1}`)}
              </Typography>
            ))}
          </Box>
        ))}
      </Page>
    </Box>
  );
}
