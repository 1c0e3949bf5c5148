import type { ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useSay } from '../lib/session';

interface InfoDialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}

/** A read-only dialog with a single Close button (contact details, password help). */
export function InfoDialog({ open, title, onClose, children }: InfoDialogProps) {
  const say = useSay();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="info-dialog-title" fullWidth maxWidth="xs">
      <DialogTitle id="info-dialog-title">{title}</DialogTitle>
      <DialogContent>{children}</DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          {say('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
