import { Button, CircularProgress, DialogActions } from '@mui/material';
import { useSay } from '../lib/session';

interface DialogButtonsProps {
  onCancel: () => void;
  /** The dialog's work is under way: both buttons are off, the confirmation spins. */
  busy: boolean;
  /** The confirmation is off until the dialog's fields are valid. */
  valid?: boolean;
  confirmLabel: string;
  /** The confirmation submits the dialog's form unless it has its own action. */
  onConfirm?: () => void;
  /** A delete, a rejection or an erasure: the confirmation is red. */
  destructive?: boolean;
}

/** A dialog's two buttons: Cancel, and the confirmation. */
export function DialogButtons({ onCancel, busy, valid = true, confirmLabel, onConfirm, destructive = false }: DialogButtonsProps) {
  const say = useSay();
  return (
    <DialogActions>
      <Button onClick={onCancel} disabled={busy}>
        {say('common.cancel')}
      </Button>
      <Button
        type={onConfirm ? 'button' : 'submit'}
        onClick={onConfirm}
        color={destructive ? 'error' : 'primary'}
        variant="contained"
        disabled={!valid || busy}
        startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
      >
        {confirmLabel}
      </Button>
    </DialogActions>
  );
}
