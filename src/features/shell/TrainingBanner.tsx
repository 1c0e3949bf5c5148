import { Alert } from '@mui/material';
import { useSay } from '../../lib/session';

/** product.md §1: every screen states that this is a training-only application. */
export function TrainingBanner() {
  const say = useSay();
  return (
    <Alert severity="warning" role="note" data-testid="training-banner" sx={{ borderRadius: 0, py: 0 }}>
      {say('app.trainingBanner')}
    </Alert>
  );
}
