import { memo, useId, type ReactNode } from 'react';
import { Alert, Box, Card, CardContent, LinearProgress, Typography } from '@mui/material';
import StorageIcon from '@mui/icons-material/Storage';
import { useIntl } from 'react-intl';
import { formatBytes, type PersistState, type StorageInfo } from './storage';
import { useSay } from '../../lib/session';

const PERSIST_TEXT: Record<PersistState, { id: string; severity: 'success' | 'warning' | 'info' }> = {
  granted: { id: 'offline.storage.persisted', severity: 'success' },
  denied: { id: 'offline.storage.notPersisted', severity: 'warning' },
  unsupported: { id: 'offline.storage.unsupported', severity: 'info' },
  unknown: { id: 'offline.storage.unsupported', severity: 'info' },
};

/** Storage used and available on this device, and whether the browser keeps it (ADR-0019). */
export const StorageCard = memo(function StorageCard({ info, action }: { info: StorageInfo | null; action?: ReactNode }) {
  const intl = useIntl();
  const say = useSay();
  const titleId = useId();
  const meterId = useId();
  const bytes = (n: number) => formatBytes(n, intl.locale);
  const known = info && info.usage !== null && info.quota !== null && info.quota > 0;
  const usage = info?.usage ?? 0;
  const quota = info?.quota ?? 0;
  const percent = known ? Math.min(100, (usage / quota) * 100) : 0;
  const persist = info ? PERSIST_TEXT[info.persist] : null;
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId} data-testid="storage-card">
      <CardContent>
        <Typography id={titleId} component="h2" variant="h6" sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
          <StorageIcon color="primary" aria-hidden />
          {say('offline.storage.title')}
        </Typography>
        {!info && <LinearProgress aria-label={say('common.loading')} />}
        {info && !known && <Typography color="text.secondary">{say('offline.storage.unknown')}</Typography>}
        {known && (
          <>
            <Box component="dl" sx={{ m: 0, display: 'flex', gap: 3, flexWrap: 'wrap', mb: 1 }}>
              <Box>
                <Typography component="dt" variant="caption" color="text.secondary">
                  {say('offline.storage.used')}
                </Typography>
                <Typography component="dd" sx={{ m: 0, fontWeight: 600 }} data-testid="storage-used">
                  {bytes(usage)}
                </Typography>
              </Box>
              <Box>
                <Typography component="dt" variant="caption" color="text.secondary">
                  {say('offline.storage.available')}
                </Typography>
                <Typography component="dd" sx={{ m: 0, fontWeight: 600 }} data-testid="storage-available">
                  {bytes(Math.max(0, quota - usage))}
                </Typography>
              </Box>
            </Box>
            <Typography id={meterId} variant="caption" color="text.secondary">
              {say('offline.storage.usage', { used: bytes(usage), quota: bytes(quota) })}
            </Typography>
            <LinearProgress
              variant="determinate"
              value={Math.max(percent, 0.5)}
              color={percent > 90 ? 'error' : 'primary'}
              aria-label={say('offline.storage.meter')}
              aria-describedby={meterId}
              aria-valuetext={`${intl.formatNumber(percent / 100, { style: 'percent', maximumFractionDigits: 1 })}`}
              sx={{ height: 8, borderRadius: 4, mt: 0.5 }}
            />
            {percent > 90 && (
              <Alert severity="error" sx={{ mt: 1 }}>
                {say('offline.storage.low')}
              </Alert>
            )}
          </>
        )}
        {persist && (
          <Alert severity={persist.severity} sx={{ mt: 1.5 }} data-testid="storage-persist" data-persist={info?.persist}>
            {say(persist.id)}
          </Alert>
        )}
        {action && <Box sx={{ mt: 2 }}>{action}</Box>}
      </CardContent>
    </Card>
  );
});
