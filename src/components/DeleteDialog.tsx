import {
  Alert,
  AlertTitle,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { isAxiosError } from 'axios';
import { errorMessage } from '../lib/http';

interface DeleteDialogProps {
  open: boolean;
  /** What is deleted, in words ("service provider"). */
  entityLabel: string;
  /** Its name, shown in the title. */
  name: string;
  onCancel: () => void;
  /** Deletes; a rejection's message (e.g. a wrong password) is shown and the dialog stays open. */
  onConfirm: (reason: string, password: string) => Promise<void>;
  /** Own texts for another removal with a reason and a password (a client's erasure), already
   * translated; the deletion's by default. */
  texts?: { title?: string; text?: string; confirm?: string; failed?: string };
  testId?: string;
}

const MIN_REASON = 3;

/** The failure in words: the server's message (a wrong password), or, when no answer came,
 * that nothing was deleted, in the user's language. */
function messageOf(error: unknown, intl: IntlShape): string {
  if (isAxiosError(error) && !error.response) return intl.formatMessage({ id: 'deleteDialog.noAnswer' });
  return errorMessage(error);
}

/** Deleting a provider or a service needs a reason and the user's password (product.md §5). */
export function DeleteDialog({ open, entityLabel, name, onCancel, onConfirm, texts = {}, testId }: DeleteDialogProps) {
  const intl = useIntl();
  const [reason, setReason] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const valid = reason.trim().length >= MIN_REASON && password.length > 0;

  const close = () => {
    setReason('');
    setPassword('');
    setError(null);
    onCancel();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    setError(null);
    try {
      await onConfirm(reason.trim(), password);
      setReason('');
      setPassword('');
    } catch (failure) {
      setError(messageOf(failure, intl));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : close}
      aria-labelledby="delete-title"
      component="form"
      onSubmit={submit}
      data-testid={testId}
    >
      <DialogTitle id="delete-title">{texts.title ?? intl.formatMessage({ id: 'deleteDialog.title' }, { name })}</DialogTitle>
      <DialogContent>
        <DialogContentText>{texts.text ?? intl.formatMessage({ id: 'deleteDialog.text' }, { entity: entityLabel })}</DialogContentText>
        <TextField
          label={intl.formatMessage({ id: 'deleteDialog.reason' })}
          helperText={intl.formatMessage({ id: 'deleteDialog.reasonHelp' })}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          required
          multiline
          minRows={2}
          fullWidth
          margin="normal"
          slotProps={{ htmlInput: { maxLength: 500 } }}
        />
        <TextField
          label={intl.formatMessage({ id: 'deleteDialog.password' })}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
          fullWidth
          margin="normal"
        />
        {error && (
          <Alert severity="error" role="alert">
            <AlertTitle>{texts.failed ?? intl.formatMessage({ id: 'deleteDialog.failed' })}</AlertTitle>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          {intl.formatMessage({ id: 'common.cancel' })}
        </Button>
        <Button
          type="submit"
          color="error"
          variant="contained"
          disabled={!valid || busy}
          startIcon={busy ? <CircularProgress size={16} /> : undefined}
        >
          {texts.confirm ?? intl.formatMessage({ id: 'deleteDialog.confirm' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
