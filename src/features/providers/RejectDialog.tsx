// Rejecting a service needs a comment (ADR-0026; the server refuses a rejection without one):
// the field says so before anything is sent.
import { useId, useState, type FormEvent } from 'react';
import { Dialog, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useSay } from '../../lib/session';
import { DialogButtons } from '../../components';

export const COMMENT_MAX = 1000;

interface Props {
  /** The service's name; the dialog is closed when null. */
  name: string | null;
  onCancel: () => void;
  /** Resolves once rejected; the dialog then closes (the caller clears `name`). */
  onConfirm: (comment: string) => Promise<void>;
}

export function RejectDialog({ name, onCancel, onConfirm }: Props) {
  const say = useSay();
  const id = useId();
  const [comment, setComment] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const trimmed = comment.trim();
  const error = !trimmed
    ? say('providers.verify.commentRequired')
    : [...trimmed].length > COMMENT_MAX
      ? say('providers.verify.commentTooLong', { limit: COMMENT_MAX })
      : null;

  const reset = () => {
    setComment('');
    setTried(false);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (error) return;
    setBusy(true);
    try {
      await onConfirm(trimmed);
      reset();
    } catch {
      // Already said by the caller (a toast); the comment stays for another try.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={name !== null}
      onClose={busy ? undefined : onCancel}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      fullWidth
      maxWidth="sm"
    >
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={`${id}-title`}>{say('providers.verify.rejectTitle')}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <DialogContentText id={`${id}-text`}>{say('providers.verify.rejectText', { name: name ?? '' })}</DialogContentText>
          <TextField
            label={say('providers.verify.comment')}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            required
            multiline
            minRows={3}
            autoFocus
            fullWidth
            disabled={busy}
            error={tried && error !== null}
            helperText={tried && error ? error : `${[...comment].length} / ${COMMENT_MAX}`}
            slotProps={{ htmlInput: { 'data-testid': 'reject-comment' } }}
          />
        </DialogContent>
        <DialogButtons
          onCancel={() => {
            reset();
            onCancel();
          }}
          busy={busy}
          confirmLabel={say('providers.verify.reject')}
          destructive
        />
      </form>
    </Dialog>
  );
}
