// The other jobs of a job (tbl_jobs_other) on its page: each further position with its
// details, and, for roles that may write, adding and editing them in a dialog.
import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogContent,
  DialogTitle,
  Paper,
  Stack,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import { otherJob } from '../../../schemas/index';
import { EntityForm, messageOf, useDisplayContext } from '../../components/entity';
import { useStoreSave } from '../../lib/data';
import { notify } from '../../lib/ui';
import { reportFailure } from './failure';
import { NotUploadedChip } from '../../components/AmberChip';
import { DetailList } from '../../components/DetailList';
import { isLocalOnly, isNotUploaded, type OtherJobDoc, type OtherJobsState } from './useJobData';
import { useSay } from '../../lib/session';

interface DialogState {
  /** The row edited; null to add one. */
  row: OtherJobDoc | null;
}

interface OtherJobDialogProps {
  state: DialogState | null;
  jbId: string;
  /** The job exists only on this device: its new other jobs wait with it. */
  parentLocalOnly: boolean;
  onClose: () => void;
}

function OtherJobDialog({ state, jbId, parentLocalOnly, onClose }: OtherJobDialogProps) {
  const say = useSay();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const storeSave = useStoreSave();
  const row = state?.row ?? null;

  const submit = async (values: Record<string, unknown>) => {
    await storeSave(async ({ data, local }) => {
      if (row) await data.update(otherJob, row.jb_oth_Id, values, [], { basedOn: row.updatedAt });
      else await (parentLocalOnly ? local : data).create(otherJob, { ...values, jb_Id: jbId });
    });
    notify.success(say('jobs.other.saved'));
    onClose();
  };

  return (
    <Dialog open={state !== null} onClose={onClose} fullScreen={phone} maxWidth="md" fullWidth aria-labelledby="other-job-dialog-title">
      <DialogTitle id="other-job-dialog-title">{say(row ? 'jobs.other.editTitle' : 'jobs.other.addTitle')}</DialogTitle>
      <DialogContent>
        {state !== null && (
          <Box sx={{ pt: 1 }}>
            <EntityForm
              key={row?.jb_oth_Id ?? 'new'}
              entity={otherJob}
              initialValues={row ?? { jb_Id: jbId }}
              recordKey={row?.jb_oth_Id}
              onSubmit={submit}
              onCancel={onClose}
              onError={(error) => reportFailure('jobs.error.otherJobTitle', error)}
            />
          </Box>
        )}
      </DialogContent>
    </Dialog>
  );
}

function OtherJobCard({ row, index, canWrite, onEdit }: { row: OtherJobDoc; index: number; canWrite: boolean; onEdit: () => void }) {
  const say = useSay();
  const ctx = useDisplayContext();
  const value = (text: unknown) =>
    typeof text === 'string' && text ? (
      text
    ) : (
      <Box component="span" sx={{ color: 'text.secondary' }}>
        —
      </Box>
    );
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="other-job-row" data-key={row.jb_oth_Id}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, flex: '1 1 200px', minWidth: 0, overflowWrap: 'anywhere' }}>
          {row.title}
        </Typography>
        {/* Chips and the button wrap together, so a phone shows them on one line under the title. */}
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, ml: 'auto' }}>
          <Chip size="small" label={say('jobs.other.positions', { count: row.positions })} />
          {isNotUploaded(row) && <NotUploadedChip />}
          {canWrite && (
            <Button
              size="small"
              startIcon={<EditIcon />}
              onClick={onEdit}
              aria-label={say('jobs.other.editRow', { n: index + 1, title: row.title })}
            >
              {say('jobs.other.edit')}
            </Button>
          )}
        </Box>
      </Box>
      <DetailList
        items={[
          { name: 'description', label: ctx.t('field.otherJob.description'), value: value(row.description), wide: true },
          { name: 'requirements', label: ctx.t('field.otherJob.requirements'), value: value(row.requirements), wide: true },
        ]}
      />
    </Paper>
  );
}

interface SectionProps {
  jbId: string;
  parent: { syncState?: unknown; syncOp?: unknown };
  others: OtherJobsState;
  canWrite: boolean;
}

export function OtherJobsSection({ jbId, parent, others, canWrite }: SectionProps) {
  const say = useSay();
  const [dialog, setDialog] = useState<DialogState | null>(null);
  return (
    <Box component="section" aria-labelledby="other-jobs-title" sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography id="other-jobs-title" component="h2" variant="h6" sx={{ flexGrow: 1 }}>
          {say('jobs.other.title')} ({others.rows.length})
        </Typography>
        {canWrite && (
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setDialog({ row: null })}>
            {say('jobs.other.add')}
          </Button>
        )}
      </Box>
      {others.status === 'error' && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={others.retry}>
              {say('entityGrid.retry')}
            </Button>
          }
        >
          {say('jobs.other.loadFailed', { message: messageOf(others.error) })}
        </Alert>
      )}
      {others.status !== 'loading' && others.rows.length === 0 && <Typography color="text.secondary">{say('jobs.other.none')}</Typography>}
      <Stack spacing={1.5}>
        {others.rows.map((row, index) => (
          <OtherJobCard key={row.jb_oth_Id} row={row} index={index} canWrite={canWrite} onEdit={() => setDialog({ row })} />
        ))}
      </Stack>
      <OtherJobDialog state={dialog} jbId={jbId} parentLocalOnly={isLocalOnly(parent)} onClose={() => setDialog(null)} />
    </Box>
  );
}
