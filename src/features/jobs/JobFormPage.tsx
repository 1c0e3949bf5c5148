// /availablejobs/add and /availablejobs/:jbId/edit: every field of a job offer, its position
// (map, device or typed), up to 3 images, and its other-job rows, saved together online or on
// this device (saveJob.ts).
import { useState, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { Alert, Box, Button, Card, CardContent, Typography, type SxProps, type Theme } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { job } from '../../../schemas/index';
import { FullPageSpinner, Page } from '../../components';
import { EntityForm, messageOf, useLookupLists, type FormApi } from '../../components/entity';
import { ImagePicker, NO_IMAGE_CHANGES, useRecordImages, type ImageChanges } from '../../components/images';
import { LocationPicker, defaultCenter } from '../../components/map';
import { useStoreSave } from '../../lib/data';
import { notify } from '../../lib/ui';
import { t, useSay } from '../../lib/session';
import { reportFailure } from './failure';
import { invalidRows, afterSave, rowFromDoc, type OtherJobRow } from './otherJobRows';
import { OtherJobRowsEditor } from './OtherJobRowsEditor';
import { validateNewJob } from './rules';
import { jobPaths } from './paths';
import { OtherJobsNotSaved, saveJob } from './saveJob';
import { isNotUploaded, useJob, useOtherJobs, type JobDoc } from './useJobData';
import { useRowsDraft } from './useRowsDraft';

/** Every field of a job, in the order staff fill them in from a posting. */
export const JOB_FORM_FIELDS = [
  'title',
  'employer',
  'sector',
  'territory',
  'address',
  'positions',
  'contract',
  'deadline',
  'description',
  'requirements',
  'contact',
  'phone',
  'email',
] as const;

/** The rows need corrections: the form stays open and the rows show their messages. */
class RowsInvalid extends Error {
  constructor(count: number) {
    super(t('jobs.form.rowsInvalid', { count }));
    this.name = 'RowsInvalid';
  }
}

function FormSection({ title, children, sx }: { title: string; children: ReactNode; sx?: SxProps<Theme> }) {
  return (
    <Box component="section" sx={[{ display: 'flex', flexDirection: 'column', gap: 1.5, pt: 1 }, ...(Array.isArray(sx) ? sx : [sx])]}>
      <Typography component="h2" variant="h6">
        {title}
      </Typography>
      {children}
    </Box>
  );
}

interface ScreenProps {
  /** The job edited (live), or null for a new one. */
  record: JobDoc | null;
  /** Its stored other jobs, read when the screen opens. */
  loadedRows: () => OtherJobRow[];
}

function JobFormScreen({ record, loadedRows }: ScreenProps) {
  const say = useSay();
  const navigate = useNavigate();
  const storeSave = useStoreSave();
  const lists = useLookupLists();
  const draft = useRowsDraft(record?.jb_Id, loadedRows);
  // A new job whose rows failed after it was saved: further saves update it.
  const [savedNew, setSavedNew] = useState<JobDoc | null>(null);
  const current = record ?? savedNew;
  // The version the edit is based on: the job as the form opened it, then as this form saved it.
  const [basedOn, setBasedOn] = useState(record?.updatedAt);
  const [images, setImages] = useState<ImageChanges>(NO_IMAGE_CHANGES);
  const existingImages = useRecordImages(job, current);
  const [rowsTried, setRowsTried] = useState(false);
  const jobPath = jobPaths.page(draft.jbId);

  const submit = async (values: Record<string, unknown>) => {
    const invalid = invalidRows(draft.rows);
    if (invalid.length) {
      setRowsTried(true);
      throw new RowsInvalid(invalid.length);
    }
    try {
      // Pressed before the store opened, the save waits for it under "Saving…", within the
      // save's one bound (useStoreSave).
      const result = await storeSave(({ data, local }) =>
        saveJob({ data, local, jbId: draft.jbId, current, basedOn, values, images, rows: draft.rows }),
      );
      draft.clear();
      notify.success(say('jobs.saved'), isNotUploaded(result.job) ? say('jobs.savedOffline') : '');
      void navigate(jobPath, { replace: true });
    } catch (error) {
      if (error instanceof OtherJobsNotSaved) {
        // The job is stored: keep what worked, so the next save sends only the rest.
        if (!record) setSavedNew(error.result.job);
        setBasedOn(error.result.job.updatedAt);
        setImages(NO_IMAGE_CHANGES);
        draft.setRows(afterSave(draft.rows, error.result.rowsDone));
      }
      throw error;
    }
  };

  const cancel = () => {
    draft.clear();
    void navigate(record ? jobPath : jobPaths.list);
  };

  const extra = (form: FormApi) => (
    <>
      <FormSection title={say('jobs.form.location')}>
        <LocationPicker
          value={{ lat: form.values.lat as number | string | null | undefined, lng: form.values.lng as number | string | null | undefined }}
          onChange={(next) => {
            form.setValue('lat', next.lat);
            form.setValue('lng', next.lng);
          }}
          defaultCenter={defaultCenter(lists, typeof form.values.territory === 'number' ? form.values.territory : null)}
          errors={{ lat: form.errors.lat, lng: form.errors.lng }}
          disabled={form.saving}
        />
      </FormSection>
      <FormSection title={say('jobs.images.title')}>
        <ImagePicker
          slots={job.images}
          max={3}
          existing={existingImages}
          value={images}
          onChange={setImages}
          disabled={form.saving}
          label={say('jobs.form.imagesLabel')}
        />
      </FormSection>
      <FormSection title={say('jobs.other.title')}>
        <OtherJobRowsEditor rows={draft.rows} onChange={draft.setRows} disabled={form.saving} showAll={rowsTried} />
      </FormSection>
    </>
  );

  return (
    <Card variant="outlined">
      <CardContent sx={{ p: { xs: 1.5, sm: 2 } }}>
        {draft.restored && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {say('jobs.form.rowsRestored')}
          </Alert>
        )}
        {/* A save tried with errors in the job's own fields never reaches `submit`: the rows
            learn of the attempt from the submit event itself, so they show their messages too. */}
        <Box onSubmitCapture={() => setRowsTried(true)}>
          <EntityForm
            entity={job}
            fields={JOB_FORM_FIELDS}
            initialValues={record ?? {}}
            recordKey={record?.jb_Id}
            validate={record || savedNew ? undefined : (values) => validateNewJob(values)}
            onSubmit={submit}
            onCancel={cancel}
            onError={(error) => !(error instanceof RowsInvalid) && reportFailure('jobs.error.saveTitle', error)}
          >
            {extra}
          </EntityForm>
        </Box>
      </CardContent>
    </Card>
  );
}

export function JobAddPage() {
  const say = useSay();
  return (
    <Page title={say('screens.addAvailableJob')}>
      <JobFormScreen record={null} loadedRows={() => []} />
    </Page>
  );
}

export function JobEditPage() {
  const say = useSay();
  const { jbId = '' } = useParams();
  const state = useJob(jbId);
  const others = useOtherJobs(jbId);
  const back = (
    <Button component={RouterLink} to={jobPaths.page(jbId)} startIcon={<ArrowBackIcon />}>
      {say('jobs.form.backToJob')}
    </Button>
  );
  let body: ReactNode;
  if (state.status === 'loading' || others.status === 'loading') body = <FullPageSpinner label={say('common.loading')} />;
  else if (state.status === 'error' || others.status === 'error') {
    body = (
      <Alert
        severity="error"
        action={
          <Button
            color="inherit"
            size="small"
            onClick={() => {
              state.retry();
              others.retry();
            }}
          >
            {say('entityGrid.retry')}
          </Button>
        }
      >
        {say('jobs.page.loadFailed', { message: messageOf(state.error ?? others.error) })}
      </Alert>
    );
  } else if (!state.job)
    body = (
      <Alert severity="warning" data-testid="job-missing">
        {say('jobs.page.notFound')}
      </Alert>
    );
  else {
    const rows = others.rows;
    body = <JobFormScreen key={jbId} record={state.job} loadedRows={() => rows.map(rowFromDoc)} />;
  }
  const title = state.job ? say('jobs.form.editTitle', { title: state.job.title }) : say('jobs.form.editTitleShort');
  return (
    <Page title={title} actions={back}>
      {body}
    </Page>
  );
}
