// users/chngpas (every role): old, new and confirm, with the strength rule shown as the user
// types. The server checks the same rule; a change ends the user's other sessions and keeps
// this one (usersApi.changePassword stores the new token).
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Box, Button, CircularProgress, Paper, Stack } from '@mui/material';
import { passwordProblems } from '../../../schemas/passwords';
import { Page, useSessionUser } from '../../components';
import { messageOf, serverFieldErrors } from '../../components/entity';
import { notify } from '../../lib/ui';
import { PasswordField } from './PasswordField';
import { PasswordRules } from './PasswordRules';
import { changePassword } from './usersApi';
import { useSay } from '../../lib/session';

type Field = 'oldPassword' | 'newPassword' | 'confirm';

/** Messages (ids) of what is wrong, by field. */
function problemsOf(values: Record<Field, string>, userName: string): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  if (!values.oldPassword) out.oldPassword = 'users.password.oldRequired';
  if (!values.newPassword) out.newPassword = 'users.password.newRequired';
  else if (passwordProblems(values.newPassword, userName).length) out.newPassword = 'users.password.weak';
  else if (values.newPassword === values.oldPassword) out.newPassword = 'users.password.same';
  if (values.confirm !== values.newPassword) out.confirm = 'users.password.mismatch';
  return out;
}

export function ChangePasswordPage() {
  const say = useSay();
  const user = useSessionUser();
  const navigate = useNavigate();
  const id = useId();
  const [forced] = useState(() => user?.mustChangePassword === true);
  const [values, setValues] = useState<Record<Field, string>>({ oldPassword: '', newPassword: '', confirm: '' });
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [attempted, setAttempted] = useState(false);
  const [server, setServer] = useState<{ fields: Partial<Record<Field, string>>; general?: string }>({ fields: {} });
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState(false);
  const userName = user?.userName ?? '';
  const problems = problemsOf(values, userName);

  const errorOf = (field: Field) =>
    server.fields[field] ?? ((touched[field] || attempted) && problems[field] ? say(problems[field]) : undefined);
  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setServer((s) => ({ fields: { ...s.fields, [field]: undefined } }));
    setDone(false);
  };
  const touch = (field: Field) => () => setTouched((t) => ({ ...t, [field]: true }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (Object.keys(problems).length) {
      const first = (['oldPassword', 'newPassword', 'confirm'] as const).find((f) => problems[f]);
      if (first) document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    setSaving(true);
    setServer({ fields: {} });
    try {
      const message = await changePassword(values.oldPassword, values.newPassword);
      notify.success(say('screens.changePassword'), message);
      setValues({ oldPassword: '', newPassword: '', confirm: '' });
      setTouched({});
      setAttempted(false);
      setDone(true);
      if (forced) void navigate('/', { replace: true });
    } catch (error) {
      const fields = Object.fromEntries(serverFieldErrors(error).map((e) => [e.field, e.message])) as Partial<Record<Field, string>>;
      setServer(Object.keys(fields).length ? { fields } : { fields: {}, general: messageOf(error) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Page title={say('screens.changePassword')}>
      <Paper
        component="form"
        noValidate
        onSubmit={(e: FormEvent) => void submit(e)}
        sx={{ p: { xs: 2, sm: 3 }, maxWidth: 520 }}
        aria-busy={saving}
      >
        <Stack spacing={2}>
          {forced && !done && <Alert severity="warning">{say('users.password.mustChange')}</Alert>}
          {done && <Alert severity="success">{say('users.password.changed')}</Alert>}
          {server.general && <Alert severity="error">{server.general}</Alert>}
          {/* For password managers: whose password this is. */}
          <input type="text" name="username" autoComplete="username" value={userName} readOnly hidden />
          <PasswordField
            id={`${id}-oldPassword`}
            label={say('users.password.old')}
            value={values.oldPassword}
            onChange={set('oldPassword')}
            onBlur={touch('oldPassword')}
            error={errorOf('oldPassword')}
            autoComplete="current-password"
            disabled={saving}
            autoFocus
          />
          <PasswordField
            id={`${id}-newPassword`}
            label={say('users.password.new')}
            value={values.newPassword}
            onChange={set('newPassword')}
            onBlur={touch('newPassword')}
            error={errorOf('newPassword')}
            autoComplete="new-password"
            disabled={saving}
            describedBy={`${id}-rules`}
          />
          <PasswordRules id={`${id}-rules`} password={values.newPassword} userName={userName} />
          <PasswordField
            id={`${id}-confirm`}
            label={say('users.password.confirm')}
            value={values.confirm}
            onChange={set('confirm')}
            onBlur={touch('confirm')}
            error={errorOf('confirm')}
            autoComplete="new-password"
            disabled={saving}
          />
          <Alert severity="info">{say('users.password.otherSessions')}</Alert>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
            <Button
              type="submit"
              variant="contained"
              disabled={saving}
              startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
            >
              {say('users.password.submit')}
            </Button>
          </Box>
        </Stack>
      </Paper>
    </Page>
  );
}
