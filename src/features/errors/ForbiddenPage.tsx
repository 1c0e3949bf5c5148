import { Link as RouterLink } from 'react-router';
import { Box, Button, Typography } from '@mui/material';
import { useSay } from '../../lib/session';

/** product.md §2: a large 403 for a role that may not open the screen. */
export function ForbiddenPage() {
  const say = useSay();
  return (
    <Box sx={{ textAlign: 'center', py: { xs: 4, sm: 8 } }}>
      <Typography
        component="p"
        aria-hidden
        sx={{ fontSize: { xs: '6rem', sm: '9rem' }, fontWeight: 700, lineHeight: 1, color: 'error.main' }}
      >
        403
      </Typography>
      <Typography component="h1" variant="h4" sx={{ mt: 2 }}>
        {say('errors.forbiddenTitle')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {say('errors.forbiddenText')}
      </Typography>
      <Button component={RouterLink} to="/" variant="contained" sx={{ mt: 3 }}>
        {say('errors.backHome')}
      </Button>
    </Box>
  );
}
