// After "Create the account": the first password, shown once, with a copy button. The server
// never gives it back (it keeps a hash only), so this is the one moment to hand it over.
import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useSay } from '../../lib/session';

export interface CreatedAccount {
  userName: string;
  password: string;
}

export function CreatedDialog({ account, onClose }: { account: CreatedAccount | null; onClose: () => void }) {
  const say = useSay();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(account?.password ?? '').then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  return (
    <Dialog open={account !== null} aria-labelledby="created-title" fullWidth maxWidth="xs">
      <DialogTitle id="created-title">{say('users.createdOnce.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5}>
          <Typography variant="body2">{say('users.createdOnce.intro', { userName: account?.userName ?? '' })}</Typography>
          <Typography
            component="output"
            data-testid="created-password"
            aria-label={say('field.user.password')}
            sx={{ fontFamily: 'monospace', fontSize: '1.25rem', p: 1, borderRadius: 1, bgcolor: 'action.hover', overflowWrap: 'anywhere' }}
          >
            {account?.password}
          </Typography>
          <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={() => void copy()} sx={{ alignSelf: 'flex-start' }}>
            {say('users.createdOnce.copy')}
          </Button>
          <div aria-live="polite">
            {copied && (
              <Alert severity={copied === 'yes' ? 'success' : 'warning'}>
                {say(copied === 'yes' ? 'users.createdOnce.copied' : 'users.createdOnce.copyFailed')}
              </Alert>
            )}
          </div>
          <Typography variant="body2" color="text.secondary">
            {say('users.createdOnce.once')}
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {say('users.createdOnce.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
