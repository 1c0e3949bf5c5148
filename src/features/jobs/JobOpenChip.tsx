// Whether a job still takes applicants: a green "Open" or a grey "Closed" chip, on the job's
// page and in the list.
import { Chip } from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import { useSay } from '../../lib/session';

export function JobOpenChip({ open }: { open: boolean }) {
  const say = useSay();
  return (
    <Chip
      size="small"
      color={open ? 'success' : 'default'}
      icon={open ? <LockOpenIcon /> : <LockIcon />}
      label={say(open ? 'jobs.page.open' : 'jobs.page.closed')}
      data-testid="job-status"
    />
  );
}
