import { Typography } from '@mui/material';
import { useIntl } from 'react-intl';
import { InfoDialog } from '../../components';
import { PASSWORD_RESET_ROLES } from '../../lib/util';
import { useSay } from '../../lib/session';

/** Passwords are reset by an administrator; this explains whom to ask (product.md §D4). */
export function ForgotPasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const intl = useIntl();
  const say = useSay();
  const roles = PASSWORD_RESET_ROLES.map((role) => say(`role.${role}`));
  return (
    <InfoDialog open={open} onClose={onClose} title={say('auth.forgotTitle')}>
      <Typography sx={{ mb: 1 }}>{say('auth.forgotBody', { roles: intl.formatList(roles, { type: 'disjunction' }) })}</Typography>
      <Typography variant="body2" color="text.secondary">
        {say('auth.forgotAfter')}
      </Typography>
    </InfoDialog>
  );
}
