import { Alert, AlertTitle, Dialog, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { isAxiosError } from 'axios';
import { messageOf } from '../lib/http';
import { useSay, type Say } from '../lib/session';
import { DialogButtons } from './DialogButtons';

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
function failureText(error: unknown, say: Say): string {
  if (isAxiosError(error) && !error.response) return say('deleteDialog.noAnswer');
  return messageOf(error);
}

/** Deleting a provider or a service needs a reason and the user's password (product.md §5). */
export function DeleteDialog({ open, entityLabel, name, onCancel, onConfirm, texts = {}, testId }: DeleteDialogProps) {
  const say = useSay();
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
      setError(failureText(failure, say));
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
      <DialogTitle id="delete-title">{texts.title ?? say('deleteDialog.title', { name })}</DialogTitle>
      <DialogContent>
        <DialogContentText>{texts.text ?? say('deleteDialog.text', { entity: entityLabel })}</DialogContentText>
        <TextField
          label={say('deleteDialog.reason')}
          helperText={say('deleteDialog.reasonHelp')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          required
          multiline
          minRows={2}
          fullWidth
          margin="normal"
          slotProps={{ htmlInput: { maxLength: 500 } }}
        />
        <ConfirmPasswordField value={password} onChange={setPassword} />
        <FailureAlert title={texts.failed ?? say('deleteDialog.failed')} message={error} />
      </DialogContent>
      <DialogButtons onCancel={close} busy={busy} valid={valid} confirmLabel={texts.confirm ?? say('deleteDialog.confirm')} destructive />
    </Dialog>
  );
}

/** The user's password, asked again before a destructive act (a delete, a client's erasure). */
export function ConfirmPasswordField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const say = useSay();
  return (
    <TextField
      label={say('deleteDialog.password')}
      type="password"
      autoComplete="current-password"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      required
      fullWidth
      margin="normal"
    />
  );
}

/** Why a destructive act failed, under its form; nothing while it has not. */
export function FailureAlert({ title, message }: { title: string; message: string | null }) {
  if (!message) return null;
  return (
    <Alert severity="error" role="alert">
      <AlertTitle>{title}</AlertTitle>
      {message}
    </Alert>
  );
}
