// "Assign to…" (docs/product.md §6.5.1): pick the worker, see what the assignment adds to their
// device (POST /api/caseload/preview: clients, records, MB, and what the bound would leave
// out), confirm, and the caller reports the result. All or none on the server; a refusal is
// said by its code, in the user's language, and the dialog stays open.
import { useEffect, useId, useState } from 'react';
import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from '@mui/material';
import { useIntl } from 'react-intl';
import { messageOf } from '../../components/entity/errors';
import { assignClients, caseloadError, previewAssignment, type CaseloadError, type Preview, type Worker } from './caseloadApi';

/** A client to assign: its key and its organisation (one assignment moves one organisation's). */
export interface AssignTarget {
  prof_Id: string;
  location: number | null;
}

export interface AssignResult {
  assigned: number;
  unchanged: number;
  worker: Worker;
}

interface AssignDialogProps {
  open: boolean;
  clients: readonly AssignTarget[];
  workers: readonly Worker[];
  onClose: () => void;
  onAssigned: (result: AssignResult) => void;
}

type PreviewState =
  { status: 'idle' } | { status: 'loading' } | { status: 'ready'; preview: Preview } | { status: 'failed'; message: string };

/** The organisation of every client, or null when they are of several. */
function organisationOf(clients: readonly AssignTarget[]): number | null {
  const organisations = new Set(clients.map((c) => c.location ?? 0));
  return organisations.size === 1 ? ([...organisations][0] ?? null) : null;
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
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [to, setTo] = useState('');
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<CaseloadError | null>(null);
  const organisation = organisationOf(clients);
  const choices = workers.filter((w) => w.location === organisation);
  const worker = choices.find((w) => w.userId === to);
  const ids = clients.map((c) => c.prof_Id);
  const idsKey = ids.join(',');

  // What the assignment adds to the chosen worker's device, asked again for each worker; the
  // answer is kept with what it answers, so a late one for another worker is never shown.
  const asked = `${to}|${idsKey}`;
  const [answer, setAnswer] = useState<{ asked: string; state: PreviewState } | null>(null);
  const preview: PreviewState = !to ? { status: 'idle' } : answer?.asked === asked ? answer.state : { status: 'loading' };
  useEffect(() => {
    if (!to) return undefined;
    let current = true;
    const key = `${to}|${idsKey}`;
    previewAssignment(to, idsKey.split(',')).then(
      (found) => current && setAnswer({ asked: key, state: { status: 'ready', preview: found } }),
      (error: unknown) => current && setAnswer({ asked: key, state: { status: 'failed', message: messageOf(error) } }),
    );
    return () => {
      current = false;
    };
  }, [to, idsKey]);

  const confirm = async () => {
    if (!worker) return;
    setSaving(true);
    setRefusal(null);
    try {
      const answer = await assignClients(ids, worker.userId);
      onAssigned({ ...answer, worker });
    } catch (error) {
      setRefusal(caseloadError(error));
    } finally {
      setSaving(false);
    }
  };

  const mb = (n: number) => intl.formatNumber(Math.max(0, n), { maximumFractionDigits: n < 10 ? 1 : 0 });
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
        {worker && preview.status === 'loading' && (
          <Alert severity="info" icon={<CircularProgress size={18} />} data-testid="assign-preview-loading">
            {t('clients.caseload.previewLoading')}
          </Alert>
        )}
        {worker && preview.status === 'ready' && (
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
        {worker && preview.status === 'ready' && worker.caseload && preview.preview.after.overflow > 0 && (
          <Alert severity="warning" data-testid="assign-preview-overflow">
            {t('clients.caseload.previewOverflow', {
              name: worker.name,
              bound: preview.preview.after.bound,
              overflow: preview.preview.after.overflow,
            })}
          </Alert>
        )}
        {worker && preview.status === 'failed' && (
          <Alert severity="warning" data-testid="assign-preview-failed">
            {t('clients.caseload.previewFailed', { message: preview.message })}
          </Alert>
        )}
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
          // The preview first: what the worker's device takes is seen before confirming.
          disabled={!worker || saving || preview.status === 'loading' || preview.status === 'idle'}
          startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
          data-testid="assign-confirm"
        >
          {t(saving ? 'clients.caseload.assigning' : 'clients.caseload.confirm')}
        </Button>
      </DialogActions>
    </>
  );
}
