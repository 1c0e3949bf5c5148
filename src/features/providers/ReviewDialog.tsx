// A pending service in full before deciding: what it offers, to whom, where, and the
// provider's name; approve, reject (with a comment) or open its own page.
import { Link as RouterLink } from 'react-router';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { service } from '../../../schemas/index';
import { displayValue, fieldLabel, useDisplayContext, type GridRow } from '../../components/entity';
import { useSay } from '../../lib/session';
import { servicePaths } from '../services/paths';

const SHOWN = ['category', 'serviceType', 'territory', 'description', 'eligibility', 'cost', 'hours', 'createdAt'];

interface Props {
  row: GridRow | null;
  /** Why the user may not decide, or why the service is pending again (VerifyPage verifyNote). */
  note?: 'providers.verify.ownService' | 'providers.verify.changedSinceVerified' | null;
  busy: boolean;
  onClose: () => void;
  onApprove: () => void;
  onReject: () => void;
}

export function ReviewDialog({ row, note = null, busy, onClose, onApprove, onReject }: Props) {
  const own = note === 'providers.verify.ownService';
  const say = useSay();
  const ctx = useDisplayContext();
  const value = (name: string) => (row ? displayValue(service, name, row[name], ctx) : '');
  return (
    <Dialog open={row !== null} onClose={onClose} aria-labelledby="review-title" fullWidth maxWidth="sm">
      <DialogTitle id="review-title">{row ? String(row.name) : ''}</DialogTitle>
      <DialogContent dividers>
        {note && (
          <Alert severity={own ? 'warning' : 'info'} sx={{ mb: 2 }} data-testid="review-note">
            {say(note)}
          </Alert>
        )}
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '10rem 1fr' }, columnGap: 2, rowGap: 0.5 }}>
          {[
            ['providerName', say('providers.verify.provider'), row ? String(row.providerName ?? '') : ''] as const,
            ...SHOWN.map((name) => [name, fieldLabel(service, name, ctx.t), value(name)] as const),
          ]
            .filter(([, , text]) => text !== '')
            .map(([name, label, text]) => (
              <Box key={name} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" sx={{ color: 'text.secondary', pt: { sm: 0.25 } }}>
                  {label}
                </Typography>
                <Typography component="dd" sx={{ m: 0, mb: { xs: 1, sm: 0.5 }, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {text}
                </Typography>
              </Box>
            ))}
        </Box>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {row && (
          <Button component={RouterLink} to={servicePaths.page(String(row.sp_Detail_Id))} sx={{ mr: 'auto' }}>
            {say('providers.verify.openService')}
          </Button>
        )}
        <Button onClick={onClose}>{say('common.close')}</Button>
        <Button color="error" variant="outlined" onClick={onReject} disabled={busy || own}>
          {say('providers.verify.reject')}
        </Button>
        <Button color="success" variant="contained" onClick={onApprove} disabled={busy || own}>
          {say('providers.verify.approve')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
