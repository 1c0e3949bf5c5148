// "Assign to…" (docs/product.md §6.5.1): pick the worker, see what the assignment adds to their
// device (POST /api/caseload/preview: clients, records, MB, and what the bound would leave
// out), confirm, and the caller reports the result. All or none on the server; a refusal is
// said by its code, in the user's language, and the dialog stays open.
import { useId } from 'react';
import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from '@mui/material';
import { useIntl } from 'react-intl';
import { useSay } from '../../lib/session';
import type { Worker } from './caseloadApi';
import { useAssignment, type AssignResult, type AssignTarget, type PreviewState } from './useAssignment';

export type { AssignResult, AssignTarget } from './useAssignment';

interface AssignDialogProps {
  open: boolean;
  clients: readonly AssignTarget[];
  workers: readonly Worker[];
  onClose: () => void;
  onAssigned: (result: AssignResult) => void;
}

export function AssignDialog(props: AssignDialogProps) {
  const titleId = useId();
  // The form is mounted with each opening (the dialog's children go when it closes): it starts afresh.
  return (
    <Dialog open={props.open} onClose={props.onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" data-testid="assign-dialog">
      <AssignForm {...props} titleId={titleId} />
    </Dialog>
  );
}

function AssignForm({ clients, workers, onClose, onAssigned, titleId }: AssignDialogProps & { titleId: string }) {
  const t = useSay();
  const { to, setTo, organisation, choices, worker, preview, saving, refusal, confirm, canConfirm } = useAssignment(
    clients,
    workers,
    onAssigned,
  );
  return (
    <>
      <DialogTitle id={titleId}>{t('clients.caseload.dialogTitle', { count: clients.length })}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {organisation === null ? (
          <Alert severity="warning" data-testid="assign-mixed">
            {t('clients.caseload.mixed')}
          </Alert>
        ) : choices.length === 0 ? (
          <Alert severity="info">{t('clients.caseload.noWorkers')}</Alert>
        ) : (
          <TextField
            select
            label={t('clients.caseload.worker')}
            value={to}
            onChange={(event) => setTo(event.target.value)}
            disabled={saving}
            sx={{ mt: 1 }}
            data-testid="assign-worker"
          >
            {choices.map((w) => (
              <MenuItem key={w.userId} value={w.userId}>
                {w.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        {worker && <AssignPreview worker={worker} preview={preview} />}
        {refusal && (
          <Alert severity="error" data-testid="assign-error">
            {t(refusal.id, refusal.values)}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void confirm()}
          disabled={!canConfirm}
          startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
          data-testid="assign-confirm"
        >
          {t(saving ? 'clients.caseload.assigning' : 'clients.caseload.confirm')}
        </Button>
      </DialogActions>
    </>
  );
}

/** What the assignment adds to the chosen worker's device, or why that is not known. */
function AssignPreview({ worker, preview }: { worker: Worker; preview: PreviewState }) {
  const intl = useIntl();
  const t = useSay();
  const mb = (n: number) => intl.formatNumber(Math.max(0, n), { maximumFractionDigits: n < 10 ? 1 : 0 });
  return (
    <>
      {preview.status === 'loading' && (
        <Alert severity="info" icon={<CircularProgress size={18} />} data-testid="assign-preview-loading">
          {t('clients.caseload.previewLoading')}
        </Alert>
      )}
      {preview.status === 'ready' && (
        <Alert severity="info" data-testid="assign-preview">
          {worker.caseload
            ? t('clients.caseload.previewAdds', {
                clients: preview.preview.added.clients,
                rows: preview.preview.added.rows,
                megabytes: mb(preview.preview.added.megabytes),
                name: worker.name,
              })
            : t('clients.caseload.previewNoDevice', { name: worker.name })}
        </Alert>
      )}
      {preview.status === 'ready' && worker.caseload && preview.preview.after.overflow > 0 && (
        <Alert severity="warning" data-testid="assign-preview-overflow">
          {t('clients.caseload.previewOverflow', {
            name: worker.name,
            bound: preview.preview.after.bound,
            overflow: preview.preview.after.overflow,
          })}
        </Alert>
      )}
      {preview.status === 'failed' && (
        <Alert severity="warning" data-testid="assign-preview-failed">
          {t('clients.caseload.previewFailed', { message: preview.message })}
        </Alert>
      )}
    </>
  );
}
