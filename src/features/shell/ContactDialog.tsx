import type { ReactNode } from 'react';
import { Box, Link, Typography } from '@mui/material';
import { InfoDialog } from '../../components';
import { usePublicConfig, type ContactDetails } from '../../lib/http';
import { useSay } from '../../lib/session';

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ mb: 1 }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

function Details({ contact }: { contact: ContactDetails }) {
  const say = useSay();
  return (
    <Box component="dl" sx={{ m: 0 }} data-testid="contact-details">
      {contact.name && <Line label={say('contact.name')}>{contact.name}</Line>}
      {contact.email && (
        <Line label={say('contact.email')}>
          <Link href={`mailto:${contact.email}`}>{contact.email}</Link>
        </Line>
      )}
      {contact.phone && (
        <Line label={say('contact.phone')}>
          <Link href={telHref(contact.phone)}>{contact.phone}</Link>
        </Line>
      )}
      {contact.address && <Line label={say('contact.address')}>{contact.address}</Line>}
      {contact.hours && <Line label={say('contact.hours')}>{contact.hours}</Line>}
    </Box>
  );
}

/** "Contact us" of the top bar: the programme's contact details from the installation's
 * configuration (CONTACT_* settings, GET /api/config). */
export function ContactDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const say = useSay();
  const { contact } = usePublicConfig();
  const any = Object.values(contact).some(Boolean);
  return (
    <InfoDialog open={open} onClose={onClose} title={say('contact.title')}>
      {any ? (
        <>
          <Typography sx={{ mb: 1 }}>{say('contact.body')}</Typography>
          <Details contact={contact} />
        </>
      ) : (
        <Typography sx={{ mb: 1 }}>{say('contact.noneConfigured')}</Typography>
      )}
      <Typography variant="body2" color="text.secondary">
        {say('contact.admin')}
      </Typography>
    </InfoDialog>
  );
}
