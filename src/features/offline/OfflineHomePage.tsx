import { memo, useEffect, useId, useMemo } from 'react';
import { Link as RouterLink } from 'react-router';
import { Alert, Badge, Box, Button, Card, CardContent, CircularProgress, Grid, Stack, Typography } from '@mui/material';
import type SvgIcon from '@mui/material/SvgIcon';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import ListAltIcon from '@mui/icons-material/ListAlt';
import MiscellaneousServicesIcon from '@mui/icons-material/MiscellaneousServices';
import PeopleIcon from '@mui/icons-material/People';
import StopCircleIcon from '@mui/icons-material/StopCircle';
import WorkIcon from '@mui/icons-material/Work';
import { useIntl } from 'react-intl';
import {
  apprenticeship,
  business,
  job,
  otherJob,
  profile,
  profileImage,
  security,
  service,
  serviceProvider,
  skills,
  social,
  vocational,
} from '../../../schemas/index';
import { Page, useSessionUser } from '../../components';
import { useDb } from '../../lib/data';
import { can, type Permission, useSay } from '../../lib/session';
import { totalOf, usePendingCounts, type PendingCounts } from './counts';
import { ReportCards, UploadProgress } from './ReportCards';
import { RemoveMyData } from './RemoveMyData';
import { StorageCard } from './StorageCard';
import { StoreProblem } from './StoreProblem';
import { useStorageInfo } from './storage';
import { useSyncTimes } from './syncTimes';
import { startUpload, stopUpload, useUploadRun } from './uploadRun';
import { useResetFlow } from './useReset';

interface CountRule {
  id: string;
  /** The kinds of record it counts: every pending record falls in one tile, so the tiles add up
   * to the total and to the pending list (a client's skills or photo are records of their own). */
  tables: readonly string[];
  labelId: string;
  icon: typeof SvgIcon;
  color: string;
  /** Shown only to the roles holding it. */
  show?: Permission;
}

// product.md §2 Offline home: local counts of Services, Available Jobs and Clients.
// White text on these reaches 7:1 or more (WCAG AAA), small captions included, in both themes.
const COUNTS: CountRule[] = [
  {
    id: 'services',
    tables: [serviceProvider.table, service.table, apprenticeship.table, vocational.table],
    labelId: 'offline.count.services',
    icon: MiscellaneousServicesIcon,
    color: '#006064',
  },
  { id: 'jobs', tables: [job.table, otherJob.table], labelId: 'offline.count.jobs', icon: WorkIcon, color: '#1b5e20' },
  {
    id: 'clients',
    tables: [profile.table, skills.table, social.table, security.table, business.table, profileImage.table],
    labelId: 'offline.count.clients',
    icon: PeopleIcon,
    color: '#6d3d00',
    show: 'offline.clients',
  },
];

function tileCount(rule: CountRule, counts: PendingCounts): number {
  return rule.tables.reduce((n, table) => n + (counts[table] ?? 0), 0);
}

// The tiles, the sync times and the storage card are drawn again only when their own props
// change, not on every live count of an upload (docs/archive/performance-log.md, upload from Chromium).
const CountTile = memo(function CountTile({ rule, count }: { rule: CountRule; count: number | null }) {
  const intl = useIntl();
  const say = useSay();
  const label = say(rule.labelId);
  const Icon = rule.icon;
  return (
    <Card sx={{ bgcolor: rule.color, backgroundImage: 'none', color: '#fff', height: '100%' }} data-testid={`offline-count-${rule.id}`}>
      <Box sx={{ p: { xs: 1.25, sm: 2 }, display: 'flex', alignItems: 'center' }}>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography
            component="p"
            sx={{ fontWeight: 700, fontSize: { xs: '1.75rem', sm: '2.125rem' }, lineHeight: 1.2 }}
            data-testid={`offline-count-${rule.id}-value`}
          >
            {count === null ? '–' : intl.formatNumber(count)}
          </Typography>
          <Typography component="h3" sx={{ fontSize: { xs: '0.875rem', sm: '1rem' }, lineHeight: 1.3 }}>
            {label}
          </Typography>
          <Typography variant="caption">{say('offline.recordsNotUploaded', { count: count ?? 0 })}</Typography>
        </Box>
        <Icon aria-hidden sx={{ fontSize: 56, opacity: 0.35, display: { xs: 'none', md: 'block' } }} />
      </Box>
    </Card>
  );
});

/** When this device last uploaded and last pulled (ADR-0023). */
const SyncTimesLine = memo(function SyncTimesLine() {
  const intl = useIntl();
  const say = useSay();
  const times = useSyncTimes();
  const when = (iso: string | null) =>
    iso ? intl.formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' }) : say('offline.times.never');
  return (
    <Stack sx={{ mt: 1.5 }} spacing={0.25}>
      <Typography variant="body2" data-testid="last-upload">
        {say('offline.times.lastUpload', { when: when(times.upload) })}
      </Typography>
      <Typography variant="body2" data-testid="last-pull">
        {say('offline.times.lastPull', { when: when(times.pull) })}
      </Typography>
    </Stack>
  );
});

/** `/offlinehp` (product.md §2.4, §4, §5). */
export function OfflineHomePage() {
  const say = useSay();
  const db = useDb();
  const removeData = useMemo(() => <RemoveMyData />, []); // the storage card stays memoised
  const counts = usePendingCounts(true);
  const role = useSessionUser()?.role;
  const tiles = COUNTS.filter((rule) => !rule.show || can(role, rule.show));
  const total = counts ? totalOf(counts) : null;
  const run = useUploadRun();
  const storage = useStorageInfo(`${total}-${run.running}`);
  const reset = useResetFlow(db);
  const collectedId = useId();
  const reportsId = useId();
  useEffect(() => {
    performance.mark('offline-home:frame');
  }, []);
  useEffect(() => {
    if (counts) performance.mark('offline-home:counts');
  }, [counts]);

  const pendingLink = (
    <Button component={RouterLink} to="/offlinehp/pending" variant="outlined" startIcon={<ListAltIcon />}>
      <Badge badgeContent={total ?? 0} color="warning" max={9999} sx={{ '& .MuiBadge-badge': { right: -14, top: -4 } }}>
        {say('offline.pendingLink')}
      </Badge>
    </Button>
  );

  return (
    <Page title={say('screens.offlinehp')} actions={pendingLink}>
      <StoreProblem />
      <Box component="section" aria-labelledby={collectedId}>
        <Typography id={collectedId} component="h2" variant="h6" sx={{ mb: 1 }}>
          {say('offline.collected')}
        </Typography>
        <Grid container spacing={{ xs: 1, sm: 2 }}>
          {tiles.map((rule) => (
            <Grid key={rule.id} size={12 / tiles.length}>
              <CountTile rule={rule} count={counts ? tileCount(rule, counts) : null} />
            </Grid>
          ))}
        </Grid>
        <Typography sx={{ mt: 1.5 }} data-testid="offline-total" aria-live="polite">
          {total === null ? say('common.loading') : say('offline.total', { count: total })}
        </Typography>
      </Box>

      <Card variant="outlined">
        <CardContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2 }} useFlexGap>
            {!run.running && (
              <Button
                variant="contained"
                size="large"
                startIcon={<CloudUploadIcon />}
                onClick={() => db && void startUpload(db)}
                disabled={!db || total === 0}
              >
                {say('offline.upload')}
              </Button>
            )}
            {run.running && (
              <>
                <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1 }}>
                  <CircularProgress size={22} aria-hidden />
                  <Typography>{say('offline.uploading')}</Typography>
                </Box>
                <Button variant="outlined" color="warning" startIcon={<StopCircleIcon />} onClick={stopUpload}>
                  {say('offline.stop')}
                </Button>
              </>
            )}
            <Box sx={{ flexGrow: 1 }} />
            {!run.running && (
              <Button variant="outlined" color="error" startIcon={<DeleteForeverIcon />} onClick={reset.open} disabled={!db || reset.busy}>
                {say('offline.reset')}
              </Button>
            )}
          </Stack>
          <UploadProgress report={run.report} running={run.running} />
          {!run.running && run.summary && (
            <Alert severity={run.summary.severity} sx={{ mt: 1.5 }} data-testid="upload-summary">
              {run.summary.text}
            </Alert>
          )}
          {run.error && (
            <Alert severity="error" sx={{ mt: 1.5 }}>
              {run.error}
            </Alert>
          )}
          <SyncTimesLine />
        </CardContent>
      </Card>

      <Box component="section" aria-labelledby={reportsId}>
        <Typography id={reportsId} component="h2" variant="h6">
          {say('offline.reportsTitle')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {say('offline.reportsHint')}
        </Typography>
        <ReportCards report={run.report} counts={counts} />
      </Box>

      <StorageCard info={storage} action={removeData} />
      {reset.dialogs}
    </Page>
  );
}
