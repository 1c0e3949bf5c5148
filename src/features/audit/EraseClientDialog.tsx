// Erasing a client (docs/security.md "What an erasure does"): why, chosen from a list, an
// optional note, and the user's password again. The note is kept in the audit log for good, so
// the server refuses one holding any of the client's values (its name, phone, birth date,
// registration number or a text of its file), and its message shows here, under the note.
import { useState, type FormEvent } from 'react';
import { Dialog, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { isAxiosError } from 'axios';
import { ERASE_NOTE_MAX, ERASE_REASONS, type EraseReason } from '../../../schemas/erasure';
import { messageOf } from '../../lib/http';
import { useSay } from '../../lib/session';
import { ConfirmPasswordField, DialogButtons, FailureAlert } from '../../components';

export interface EraseClientDialogProps {
  open: boolean;
  /** The client's name (and registration number), in the title. */
  name: string;
  onCancel: () => void;
  /** Erases; a rejection (a wrong password, a note naming the client) is shown, the dialog stays open. */
  onConfirm: (reasonCode: EraseReason, note: string, password: string) => Promise<void>;
}

/** A refusal of the note itself (400 with `errors: [{field: 'note'}]`): its message, for the field. */
function noteError(error: unknown): string | undefined {
  if (!isAxiosError(error)) return undefined;
  const errors = (error.response?.data as { errors?: { field?: string; message?: string }[] } | undefined)?.errors;
  return errors?.find((e) => e.field === 'note')?.message;
}

/** The dialog's controller: the reason, the note and the password, and the erasure, whose
 * refusal stays in the dialog (a note naming the client under the note, anything else above the
 * buttons). */
function useEraseForm({ onCancel, onConfirm }: Pick<EraseClientDialogProps, 'onCancel' | 'onConfirm'>) {
  const say = useSay();
  const [reason, setReason] = useState<EraseReason | ''>('');
  const [note, setNote] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [noteProblem, setNoteProblem] = useState<string | null>(null);
  const valid = reason !== '' && password.length > 0;

  const reset = () => {
    setReason('');
    setNote('');
    setPassword('');
    setError(null);
    setNoteProblem(null);
  };
  const close = () => {
    reset();
    onCancel();
  };
  const editNote = (value: string) => {
    setNote(value);
    setNoteProblem(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    setError(null);
    setNoteProblem(null);
    try {
      await onConfirm(reason, note.trim(), password);
      reset();
    } catch (failure) {
      const aboutNote = noteError(failure);
      if (aboutNote) setNoteProblem(aboutNote);
      else setError(isAxiosError(failure) && !failure.response ? say('audit.clientData.eraseNoAnswer') : messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  return { reason, setReason, note, editNote, password, setPassword, busy, error, noteProblem, valid, close, submit };
}

export function EraseClientDialog({ open, name, onCancel, onConfirm }: EraseClientDialogProps) {
  const say = useSay();
  const { reason, setReason, note, editNote, password, setPassword, busy, error, noteProblem, valid, close, submit } = useEraseForm({
    onCancel,
    onConfirm,
  });

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : close}
      aria-labelledby="erase-title"
      component="form"
      onSubmit={submit}
      data-testid="client-erase-dialog"
    >
      <DialogTitle id="erase-title">{say('audit.clientData.eraseTitle', { name })}</DialogTitle>
      <DialogContent>
        <DialogContentText>{say('audit.clientData.eraseText')}</DialogContentText>
        <TextField
          select
          label={say('audit.clientData.reason')}
          value={reason}
          onChange={(e) => setReason(e.target.value as EraseReason | '')}
          required
          fullWidth
          margin="normal"
          slotProps={{ select: { native: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'client-erase-reason' } }}
        >
          <option value="" disabled>
            {say('audit.clientData.reasonChoose')}
          </option>
          {ERASE_REASONS.map((code) => (
            <option key={code} value={code}>
              {say(`audit.eraseReason.${code}`)}
            </option>
          ))}
        </TextField>
        <TextField
          label={say('audit.clientData.note')}
          value={note}
          onChange={(e) => editNote(e.target.value)}
          error={Boolean(noteProblem)}
          helperText={noteProblem ?? say('audit.clientData.noteHelp', { max: String(ERASE_NOTE_MAX) })}
          multiline
          minRows={2}
          fullWidth
          margin="normal"
          slotProps={{ htmlInput: { maxLength: ERASE_NOTE_MAX, 'data-testid': 'client-erase-note' } }}
        />
        <ConfirmPasswordField value={password} onChange={setPassword} />
        <FailureAlert title={say('audit.clientData.eraseFailed')} message={error} />
      </DialogContent>
      <DialogButtons onCancel={close} busy={busy} valid={valid} confirmLabel={say('audit.clientData.eraseConfirm')} destructive />
    </Dialog>
  );
}
