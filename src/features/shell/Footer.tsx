import { Box, Link, Typography } from '@mui/material';
import { useIntl } from 'react-intl';
import { APP_VERSION, PROGRAMME_URL } from '../../lib/constants';

/** Spec §1: link to the programme's site and the version. */
export function Footer() {
  const intl = useIntl();
  return (
    <Box
      component="footer"
      sx={{ px: 2, py: 1.5, borderTop: 1, borderColor: 'divider', display: 'flex', gap: 2, flexWrap: 'wrap', justifyContent: 'space-between' }}
    >
      <Link href={PROGRAMME_URL} target="_blank" rel="noopener noreferrer" variant="body2">
        {intl.formatMessage({ id: 'app.programmeLink' })}
      </Link>
      <Typography variant="body2" color="text.secondary" data-testid="app-version">
        {intl.formatMessage({ id: 'app.version' }, { version: APP_VERSION })}
      </Typography>
    </Box>
  );
}
