import { Box, Link, Typography } from '@mui/material';
import { APP_VERSION } from '../../lib/util';
import { usePublicConfig } from '../../lib/http';
import { useSay } from '../../lib/session';

/** product.md §1: the version, and a link to the programme's site when the installation names one
 * (PROGRAMME_URL on the server; no placeholder when it does not). */
export function Footer() {
  const say = useSay();
  const { programmeUrl } = usePublicConfig();
  return (
    <Box
      component="footer"
      sx={{
        px: 2,
        py: 1.5,
        borderTop: 1,
        borderColor: 'divider',
        display: 'flex',
        gap: 2,
        flexWrap: 'wrap',
        justifyContent: 'space-between',
      }}
    >
      {programmeUrl && (
        <Link href={programmeUrl} target="_blank" rel="noopener noreferrer" variant="body2" data-testid="programme-link">
          {say('app.programmeLink')}
        </Link>
      )}
      <Typography variant="body2" color="text.secondary" data-testid="app-version" sx={{ ml: 'auto' }}>
        {say('app.version', { version: APP_VERSION })}
      </Typography>
    </Box>
  );
}
