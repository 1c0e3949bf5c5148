import { Link as RouterLink } from 'react-router';
import { Box, Button, Typography } from '@mui/material';
import { useSay } from '../../lib/session';

/** product.md §2: the text 'page not found' for any unknown path. */
export function NotFoundPage() {
  const say = useSay();
  return (
    <Box sx={{ textAlign: 'center', py: { xs: 4, sm: 8 } }}>
      <Typography component="h1" variant="h4">
        {say('errors.notFound')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {say('errors.notFoundText')}
      </Typography>
      <Button component={RouterLink} to="/" variant="contained" sx={{ mt: 3 }}>
        {say('errors.backHome')}
      </Button>
    </Box>
  );
}
