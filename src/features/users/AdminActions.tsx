// What an administrator does to another user's account besides editing it: deactivate or
// reactivate it, and give a temporary password that must be changed at the next sign-in.
// Both end the user's sessions on the server (token version).
import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import { useIntl } from 'react-intl';
import { AmberChip, ConfirmDialog, DialogButtons } from '../../components';
import { messageOf } from '../../components/entity';
import { passwordProblems } from '../../../schemas/passwords';
import { formatDateTime, notify } from '../../lib/ui';
import { type SessionUser, useSay } from '../../lib/session';
import { PasswordField } from './PasswordField';
import { PasswordRules } from './PasswordRules';
import { temporaryPassword, updateUser, type UserRow } from './usersApi';

interface Props {
  row: UserRow;
  actor: SessionUser;
  onChange: (row: UserRow) => void;
}

function TemporaryPasswordDialog({
  row,
  actor,
  open,
  onClose,
  onDone,
}: Props & { open: boolean; onClose: () => void; onDone: (row: UserRow, password: string) => void }) {
  const say = useSay();
  const [password, setPassword] = useState(temporaryPassword);
  const [mustChange, setMustChange] = useState(true);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const weak = passwordProblems(password, row.userName).length > 0;

  const save = async () => {
    if (weak) return setError(say('users.password.weakFor').replace('{field}', say('field.user.password')));
    setSaving(true);
    setError(undefined);
    try {
      onDone(await updateUser(actor, row.userId, { password, mustChangePassword: mustChange }), password);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="temp-password-title" fullWidth maxWidth="xs">
      <DialogTitle id="temp-password-title">{say('users.tempPassword.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5} sx={{ pt: 1 }}>
          <Typography variant="body2">{say('users.tempPassword.text', { name: row.fullName })}</Typography>
          <PasswordField
            id="temp-password"
            label={say('field.user.password')}
            value={password}
            onChange={setPassword}
            error={error}
            autoComplete="new-password"
            disabled={saving}
            describedBy="temp-password-rules"
          />
          <Box>
            <Button size="small" onClick={() => setPassword(temporaryPassword())} disabled={saving}>
              {say('users.suggestPassword')}
            </Button>
          </Box>
          <PasswordRules id="temp-password-rules" password={password} userName={row.userName} />
          <FormControlLabel
            control={<Checkbox checked={mustChange} onChange={(e) => setMustChange(e.target.checked)} />}
            label={say('field.user.mustChangePassword')}
            disabled={saving}
          />
        </Stack>
      </DialogContent>
      <DialogButtons onCancel={onClose} busy={saving} onConfirm={() => void save()} confirmLabel={say('users.tempPassword.save')} />
    </Dialog>
  );
}

export function AdminActions({ row, actor, onChange }: Props) {
  const intl = useIntl();
  const say = useSay();
  const lang = intl.locale;
  const [confirming, setConfirming] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [given, setGiven] = useState<string | null>(null);
  const [error, setError] = useState<string>();

  const toggleActive = async () => {
    setConfirming(false);
    setError(undefined);
    try {
      const next = await updateUser(actor, row.userId, { active: !row.active });
      notify.success(say(next.active ? 'users.reactivated' : 'users.deactivated'), next.userName);
      onChange(next);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="user-status">
      <Stack spacing={1.5}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <Typography component="h2" variant="subtitle1" sx={{ flexGrow: 1 }}>
            {say('users.account')}
          </Typography>
          {row.active ? (
            <Typography color="success.main">{say('users.active')}</Typography>
          ) : (
            <AmberChip label={say('users.inactive')} testId="user-inactive" />
          )}
          {row.mustChangePassword && <AmberChip label={say('users.mustChangeChip')} testId="user-must-change" />}
        </Box>
        <Typography variant="body2" color="text.secondary">
          {row.lastSignInAt ? say('users.lastSignIn', { time: formatDateTime(row.lastSignInAt, lang) }) : say('users.neverSignedIn')}
        </Typography>
        {given && (
          <Alert severity="success" onClose={() => setGiven(null)}>
            {say('users.tempPassword.given', { password: given })}
          </Alert>
        )}
        {error && <Alert severity="error">{error}</Alert>}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          <Button variant="outlined" startIcon={<KeyIcon />} onClick={() => setPasswordOpen(true)}>
            {say('users.tempPassword.open')}
          </Button>
          <Button variant="outlined" color={row.active ? 'error' : 'primary'} onClick={() => setConfirming(true)}>
            {say(row.active ? 'users.deactivate' : 'users.reactivate')}
          </Button>
        </Box>
      </Stack>
      <ConfirmDialog
        open={confirming}
        title={say(row.active ? 'users.deactivate' : 'users.reactivate')}
        text={say(row.active ? 'users.deactivateText' : 'users.reactivateText', { name: row.fullName })}
        onConfirm={() => void toggleActive()}
        onCancel={() => setConfirming(false)}
      />
      {passwordOpen && (
        <TemporaryPasswordDialog
          row={row}
          actor={actor}
          onChange={onChange}
          open
          onClose={() => setPasswordOpen(false)}
          onDone={(next, password) => {
            setPasswordOpen(false);
            setGiven(password);
            onChange(next);
          }}
        />
      )}
    </Paper>
  );
}
