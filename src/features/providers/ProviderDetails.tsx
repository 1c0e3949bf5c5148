// What a provider's page shows about it: its fields as labelled values and its position on a
// map (or a plain note that none was recorded).
import type { ReactNode } from 'react';
import { Alert, Box, Card, CardContent, Link, Typography } from '@mui/material';
import { recordTitle, serviceProvider } from '../../../schemas/index';
import { displayValue, fieldLabel, useDisplayContext } from '../../components/entity';
import { MapView, isLatLng, providerTypeColor } from '../../components/map';
import { formatDate } from '../../lib/ui';
import { useSay } from '../../lib/session';
import { MAP_LINKS } from './mapLinks';
import type { ProviderDoc } from './useProvider';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '11rem 1fr' }, gap: { xs: 0, sm: 2 }, py: 0.75 }}>
      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body1" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

export function ProviderFields({ doc }: { doc: ProviderDoc }) {
  const ctx = useDisplayContext();
  const say = useSay();
  const label = (name: string) => fieldLabel(serviceProvider, name, ctx.t);
  const show = (name: string) => displayValue(serviceProvider, name, (doc as Record<string, unknown>)[name], ctx) || '—';
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {say('providers.page.details')}
        </Typography>
        <Box component="dl" sx={{ m: 0 }} data-testid="provider-details">
          <Item label={label('sp_type')}>{show('sp_type')}</Item>
          <Item label={label('territory')}>{show('territory')}</Item>
          <Item label={label('sp_Address')}>{show('sp_Address')}</Item>
          <Item label={label('contact')}>{show('contact')}</Item>
          <Item label={label('phone')}>{doc.phone ? <Link href={`tel:${doc.phone.replace(/\s+/g, '')}`}>{doc.phone}</Link> : '—'}</Item>
          <Item label={label('email')}>{doc.email ? <Link href={`mailto:${doc.email}`}>{doc.email}</Link> : '—'}</Item>
          <Item label={label('location')}>{show('location')}</Item>
          <Item label={label('createdAt')}>{formatDate(doc.createdAt, ctx.lang) || '—'}</Item>
          <Item label={label('updatedAt')}>{formatDate(doc.updatedAt, ctx.lang) || '—'}</Item>
        </Box>
      </CardContent>
    </Card>
  );
}

export function ProviderMap({ doc }: { doc: ProviderDoc }) {
  const say = useSay();
  const ctx = useDisplayContext();
  const position = { lat: doc.lat, lng: doc.lng };
  return (
    <Card variant="outlined">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, ...MAP_LINKS }}>
        <Typography variant="h6" component="h2">
          {say('providers.page.location')}
        </Typography>
        {isLatLng(position) ? (
          <>
            <MapView
              height={280}
              ariaLabel={say('providers.page.mapOf', { name: recordTitle(serviceProvider, doc) })}
              markers={[
                {
                  ...position,
                  id: doc.sp_Id,
                  title: recordTitle(serviceProvider, doc),
                  color: providerTypeColor(doc.sp_type),
                  popup: doc.sp_Address ?? undefined,
                },
              ]}
            />
            <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="provider-coords">
              {say('providers.page.coords', {
                lat: displayValue(serviceProvider, 'lat', position.lat, ctx),
                lng: displayValue(serviceProvider, 'lng', position.lng, ctx),
              })}
            </Typography>
          </>
        ) : (
          <Alert severity="info" data-testid="no-location">
            {say('providers.page.noLocation')}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
