import { Link as RouterLink } from 'react-router';
import { Box, Button, Typography } from '@mui/material';
import { useIntl } from 'react-intl';

/** product.md §2: the text 'page not found' for any unknown path. */
export function NotFoundPage() {
  const intl = useIntl();
  return (
    <Box sx={{ textAlign: 'center', py: { xs: 4, sm: 8 } }}>
      <Typography component="h1" variant="h4">
        {intl.formatMessage({ id: 'errors.notFound' })}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {intl.formatMessage({ id: 'errors.notFoundText' })}
      </Typography>
      <Button component={RouterLink} to="/" variant="contained" sx={{ mt: 3 }}>
        {intl.formatMessage({ id: 'errors.backHome' })}
      </Button>
    </Box>
  );
}
