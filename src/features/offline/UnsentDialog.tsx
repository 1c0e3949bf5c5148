import { useId, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, useMediaQuery } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { useSay } from '../../lib/session';

export interface DialogAction {
  label: string;
  onClick: () => void;
  /** The dangerous choice is red; the safe one is the default focus. */
  tone?: 'danger' | 'primary' | 'plain';
  autoFocus?: boolean;
}

interface UnsentDialogProps {
  open: boolean;
  title: string;
  text: ReactNode;
  /** Extra choices beside Cancel, left to right. */
  actions: DialogAction[];
  onCancel: () => void;
  /** The first button's text; Cancel by default. */
  cancelLabel?: string;
  /** A decision is required: Escape and a click outside do nothing. */
  mandatory?: boolean;
  /** Shown as a warning (records would be put at risk) rather than a plain question. */
  warning?: boolean;
}

/** A confirmation with several choices, used where unsent records are at stake. */
export function UnsentDialog({ open, title, text, actions, onCancel, cancelLabel, mandatory = false, warning = true }: UnsentDialogProps) {
  const say = useSay();
  const titleId = useId();
  const textId = useId();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  return (
    <Dialog
      open={open}
      onClose={mandatory ? undefined : onCancel}
      aria-labelledby={titleId}
      aria-describedby={textId}
      role={warning ? 'alertdialog' : 'dialog'}
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id={titleId} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        {warning && <WarningAmberIcon color="warning" aria-hidden />}
        {title}
      </DialogTitle>
      <DialogContent>
        <DialogContentText id={textId} component="div">
          {text}
        </DialogContentText>
      </DialogContent>
      <DialogActions
        sx={{ flexWrap: 'wrap', gap: 1, flexDirection: narrow ? 'column-reverse' : 'row', alignItems: narrow ? 'stretch' : 'center' }}
      >
        <Button onClick={onCancel} autoFocus={!actions.some((a) => a.autoFocus)} sx={{ ml: narrow ? '0 !important' : undefined }}>
          {cancelLabel ?? say('common.cancel')}
        </Button>
        {actions.map((action) => (
          <Button
            key={action.label}
            onClick={action.onClick}
            autoFocus={action.autoFocus}
            variant={action.tone === 'plain' ? 'text' : 'contained'}
            color={action.tone === 'danger' ? 'error' : 'primary'}
            sx={{ ml: narrow ? '0 !important' : undefined }}
          >
            {action.label}
          </Button>
        ))}
      </DialogActions>
    </Dialog>
  );
}
