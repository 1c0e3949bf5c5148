import { Typography } from '@mui/material';
import { useIntl } from 'react-intl';
import { InfoDialog } from '../../components';
import { PASSWORD_RESET_ROLES } from '../../lib/util';

/** Passwords are reset by an administrator; this explains whom to ask (product.md §D4). */
export function ForgotPasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const intl = useIntl();
  const roles = PASSWORD_RESET_ROLES.map((role) => intl.formatMessage({ id: `role.${role}` }));
  return (
    <InfoDialog open={open} onClose={onClose} title={intl.formatMessage({ id: 'auth.forgotTitle' })}>
      <Typography sx={{ mb: 1 }}>
        {intl.formatMessage({ id: 'auth.forgotBody' }, { roles: intl.formatList(roles, { type: 'disjunction' }) })}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {intl.formatMessage({ id: 'auth.forgotAfter' })}
      </Typography>
    </InfoDialog>
  );
}
