import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { Box, Link, Paper, Typography } from '@mui/material';
import { Page } from '../../components';
import { type Lang, useSay } from '../../lib/session';
import { HELP_IMAGE_HEIGHT, HELP_IMAGE_WIDTH, screenshotUrl } from './screenshots';

// The help text, section by section: numbered paragraphs (p1…), numbered steps (s1…, an ordered
// list), one line per role (r1…), and screenshots, each with its caption key. Texts live in the
// catalogs under help.<section>.
interface Section {
  id: string;
  paragraphs?: number;
  intro?: boolean;
  steps?: number;
  roles?: number;
  images?: { name: string; caption: string }[];
}

const SECTIONS: readonly Section[] = [
  { id: 'about', paragraphs: 2 },
  { id: 'signIn', paragraphs: 3, images: [{ name: 'login', caption: 'caption' }] },
  { id: 'screen', paragraphs: 2, images: [{ name: 'menu', caption: 'caption' }] },
  { id: 'home', paragraphs: 2, images: [{ name: 'home', caption: 'caption' }] },
  {
    id: 'providers',
    paragraphs: 3,
    images: [
      { name: 'providers', caption: 'caption' },
      { name: 'provider-form', caption: 'caption2' },
    ],
  },
  { id: 'jobs', paragraphs: 2, images: [{ name: 'jobs', caption: 'caption' }] },
  {
    id: 'clients',
    paragraphs: 2,
    images: [
      { name: 'clients', caption: 'caption' },
      { name: 'referrals', caption: 'caption2' },
    ],
  },
  { id: 'reports', paragraphs: 1, images: [{ name: 'reports', caption: 'caption' }] },
  { id: 'offline', intro: true, steps: 8, images: [{ name: 'offline-home', caption: 'caption' }] },
  { id: 'account', paragraphs: 2, images: [{ name: 'change-password', caption: 'caption' }] },
  {
    id: 'admin',
    paragraphs: 3,
    images: [
      { name: 'users', caption: 'caption' },
      { name: 'lists', caption: 'caption2' },
    ],
  },
  { id: 'roles', intro: true, roles: 7 },
  { id: 'ask', paragraphs: 2 },
];

const range = (n = 0) => Array.from({ length: n }, (_, i) => i + 1);

function Figure({ src, caption, alt }: { src: string; caption: string; alt: string }) {
  return (
    <Box component="figure" sx={{ m: 0, my: 2 }}>
      <Paper variant="outlined" sx={{ overflow: 'hidden', maxWidth: HELP_IMAGE_WIDTH, lineHeight: 0 }}>
        <Box
          component="img"
          src={src}
          alt={alt}
          width={HELP_IMAGE_WIDTH}
          height={HELP_IMAGE_HEIGHT}
          loading="lazy"
          decoding="async"
          sx={{ width: '100%', height: 'auto', display: 'block' }}
        />
      </Paper>
      <Typography component="figcaption" variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {caption}
      </Typography>
    </Box>
  );
}

function SectionBody({ section, lang }: { section: Section; lang: Lang }) {
  const say = useSay();
  const sectionText = (key: string) => say(`help.${section.id}.${key}`);
  const blocks: ReactNode[] = [];
  if (section.intro)
    blocks.push(
      <Typography key="intro" sx={{ mb: 1 }}>
        {sectionText('intro')}
      </Typography>,
    );
  for (const n of range(section.paragraphs))
    blocks.push(
      <Typography key={`p${n}`} sx={{ mb: 1 }}>
        {sectionText(`p${n}`)}
      </Typography>,
    );
  if (section.steps) {
    blocks.push(
      <Box component="ol" key="steps" sx={{ pl: 3, my: 1, '& li': { mb: 1 } }}>
        {range(section.steps).map((n) => (
          <Typography component="li" key={n}>
            {sectionText(`s${n}`)}
          </Typography>
        ))}
      </Box>,
    );
  }
  if (section.roles) {
    blocks.push(
      <Box component="ul" key="roles" sx={{ pl: 3, my: 1 }}>
        {range(section.roles).map((n) => (
          <Typography component="li" key={n} sx={{ mb: 0.5 }}>
            {sectionText(`r${n}`)}
          </Typography>
        ))}
      </Box>,
    );
  }
  for (const image of section.images ?? []) {
    const caption = sectionText(image.caption);
    blocks.push(<Figure key={image.name} src={screenshotUrl(lang, image.name)} caption={caption} alt={say('help.figure', { caption })} />);
  }
  return blocks;
}

/** Rendered inside the help language's intl provider. */
export function HelpContent({ lang, other }: { lang: Lang; other: Lang }) {
  const say = useSay();
  return (
    <Box component="article" lang={lang} sx={{ maxWidth: 900 }}>
      <Page
        title={say('help.title')}
        actions={
          <Link component={RouterLink} to={`/help/${other}`} lang={other}>
            {say('help.otherLanguage')}
          </Link>
        }
      >
        <Box component="nav" aria-labelledby="help-contents">
          <Typography id="help-contents" component="h2" variant="h6" sx={{ mb: 1 }}>
            {say('help.contents')}
          </Typography>
          <Box component="ol" sx={{ pl: 3, m: 0, columns: { sm: 2 } }}>
            {SECTIONS.map((section) => (
              <li key={section.id}>
                <Link href={`#help-${section.id}`}>{say(`help.${section.id}.title`)}</Link>
              </li>
            ))}
          </Box>
        </Box>
        {SECTIONS.map((section) => (
          <Box
            component="section"
            key={section.id}
            id={`help-${section.id}`}
            aria-labelledby={`help-${section.id}-title`}
            sx={{ scrollMarginTop: 80 }}
          >
            <Typography id={`help-${section.id}-title`} component="h2" variant="h6" sx={{ mb: 1 }}>
              {say(`help.${section.id}.title`)}
            </Typography>
            <SectionBody section={section} lang={lang} />
          </Box>
        ))}
      </Page>
    </Box>
  );
}
