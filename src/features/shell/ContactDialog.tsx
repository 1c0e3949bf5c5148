import { Link, Typography } from '@mui/material';
import { useIntl } from 'react-intl';
import { InfoDialog } from '../../components';
import { CONTACT_EMAIL } from '../../lib/constants';

/** "Contact us" of the top bar: whom to write to, and a mailto link. */
export function ContactDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const intl = useIntl();
  return (
    <InfoDialog open={open} onClose={onClose} title={intl.formatMessage({ id: 'contact.title' })}>
      <Typography sx={{ mb: 1 }}>{intl.formatMessage({ id: 'contact.body' })}</Typography>
      <Typography sx={{ mb: 1 }}>
        <Link href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</Link>
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {intl.formatMessage({ id: 'contact.admin' })}
      </Typography>
    </InfoDialog>
  );
}
