import { Alert } from '@mui/material';
import { useIntl } from 'react-intl';

/** product.md §1: every screen states that this is a training-only application. */
export function TrainingBanner() {
  const intl = useIntl();
  return (
    <Alert severity="warning" role="note" data-testid="training-banner" sx={{ borderRadius: 0, py: 0 }}>
      {intl.formatMessage({ id: 'app.trainingBanner' })}
    </Alert>
  );
}
