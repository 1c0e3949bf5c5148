// /availablejobs/:jbId: one job offer with every field, its images, its place on a map and its
// other jobs; Edit and Close/Reopen for the roles that may write.
import { useState, type ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { Alert, Box, Button, Card, CardContent, Grid, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import EditIcon from '@mui/icons-material/Edit';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import { job } from '../../../schemas/index';
import { ConfirmDialog, FullPageSpinner, Page, useSessionUser } from '../../components';
import { HistorySection } from '../audit';
import { messageOf, useDisplayContext } from '../../components/entity';
import { useRecordImages } from '../../components/images';
import { JOB_MARKER_COLOR, MapView, isLatLng } from '../../components/map';
import { useDataLayer } from '../../lib/data';
import { formatDate, notify } from '../../lib/ui';
import { mayChange, t, useSay } from '../../lib/session';
import { reportFailure } from './failure';
import { AmberChip, NotUploadedChip } from '../../components/AmberChip';
import { JobDetails } from './JobDetails';
import { JobOpenChip } from './JobOpenChip';
import { JobGallery } from './JobGallery';
import { OtherJobsSection } from './OtherJobsSection';
import { jobPaths } from './paths';
import { isPastDeadline } from './rules';
import { isNotUploaded, useJob, useOtherJobs, type JobDoc } from './useJobData';

function SectionCard({ titleId, id, children }: { titleId: string; id: string; children: ReactNode }) {
  const say = useSay();
  return (
    <Card variant="outlined" component="section" aria-labelledby={id}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Typography id={id} component="h2" variant="h6">
          {say(titleId)}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

function StatusChips({ record }: { record: JobDoc }) {
  const ctx = useDisplayContext();
  const say = useSay();
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <JobOpenChip open={record.open} />
      {record.open && isPastDeadline(record.deadline) && (
        <AmberChip label={say('jobs.page.deadlinePassed', { date: formatDate(record.deadline, ctx.lang) })} />
      )}
      {isNotUploaded(record) && <NotUploadedChip />}
    </Box>
  );
}

/** Close or reopen after a confirmation (staff close a posting once it is filled). */
function useOpenToggle(record: JobDoc | null) {
  const data = useDataLayer();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const closing = record?.open === true;
  const confirm = async () => {
    setAsking(false);
    if (!record || !data) return;
    setBusy(true);
    try {
      await data.update(job, record.jb_Id, { open: !closing }, [], { basedOn: record.updatedAt });
      notify.success(t(closing ? 'jobs.close.done' : 'jobs.reopen.done'));
    } catch (error) {
      reportFailure('jobs.error.statusTitle', error);
    } finally {
      setBusy(false);
    }
  };
  return { closing, asking, busy, ask: () => setAsking(true), cancel: () => setAsking(false), confirm };
}

function Actions({ record, canWrite, toggle }: { record: JobDoc; canWrite: boolean; toggle: ReturnType<typeof useOpenToggle> }) {
  const say = useSay();
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Button component={RouterLink} to={jobPaths.list} startIcon={<ArrowBackIcon />}>
        {say('jobs.page.back')}
      </Button>
      {canWrite && (
        <>
          <Button
            variant="outlined"
            startIcon={toggle.closing ? <LockIcon /> : <LockOpenIcon />}
            onClick={toggle.ask}
            disabled={toggle.busy}
          >
            {say(toggle.closing ? 'jobs.close.action' : 'jobs.reopen.action')}
          </Button>
          <Button component={RouterLink} to={jobPaths.edit(record.jb_Id)} variant="contained" startIcon={<EditIcon />}>
            {say('jobs.page.edit')}
          </Button>
        </>
      )}
    </Box>
  );
}

function JobView({ record }: { record: JobDoc }) {
  const say = useSay();
  const user = useSessionUser();
  // Another organisation's job is read-only here, as in the API.
  const canWrite = mayChange(user, job, record);
  const images = useRecordImages(job, record);
  const others = useOtherJobs(record.jb_Id);
  const toggle = useOpenToggle(record);
  const place = { lat: record.lat, lng: record.lng };

  return (
    <Page title={record.title} actions={<Actions record={record} canWrite={canWrite} toggle={toggle} />}>
      <StatusChips record={record} />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 7 }}>
          <SectionCard id="job-details-title" titleId="jobs.page.details">
            <JobDetails record={record} />
          </SectionCard>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <SectionCard id="job-images-title" titleId="jobs.images.title">
            <JobGallery images={images} />
          </SectionCard>
          <SectionCard id="job-map-title" titleId="jobs.page.location">
            {isLatLng(place) ? (
              <Box>
                <MapView
                  markers={[{ id: record.jb_Id, ...place, color: JOB_MARKER_COLOR, title: record.title }]}
                  height={260}
                  ariaLabel={say('jobs.page.mapLabel')}
                />
              </Box>
            ) : (
              <Typography color="text.secondary">{say('jobs.page.noLocation')}</Typography>
            )}
          </SectionCard>
        </Grid>
      </Grid>
      <OtherJobsSection jbId={record.jb_Id} parent={record} others={others} canWrite={canWrite} />
      {!(record.syncState === 'pending' && record.syncOp === 'create') && <HistorySection entity="job" recordId={record.jb_Id} />}
      <ConfirmDialog
        open={toggle.asking}
        title={say(toggle.closing ? 'jobs.close.title' : 'jobs.reopen.title')}
        text={say(toggle.closing ? 'jobs.close.text' : 'jobs.reopen.text')}
        confirmLabel={say(toggle.closing ? 'jobs.close.action' : 'jobs.reopen.action')}
        onConfirm={() => void toggle.confirm()}
        onCancel={toggle.cancel}
      />
    </Page>
  );
}

export function JobPage() {
  const say = useSay();
  const { jbId = '' } = useParams();
  const state = useJob(jbId);
  if (state.status === 'loading') return <FullPageSpinner label={say('common.loading')} />;
  if (state.status === 'ready' && state.job) return <JobView record={state.job} />;
  const back = (
    <Button component={RouterLink} to={jobPaths.list} startIcon={<ArrowBackIcon />}>
      {say('jobs.page.back')}
    </Button>
  );
  return (
    <Page title={say('entity.job')} actions={back}>
      {state.status === 'error' ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={state.retry}>
              {say('entityGrid.retry')}
            </Button>
          }
        >
          {say('jobs.page.loadFailed', { message: messageOf(state.error) })}
        </Alert>
      ) : (
        <Alert severity="warning" data-testid="job-missing">
          {say('jobs.page.notFound')}
        </Alert>
      )}
    </Page>
  );
}
