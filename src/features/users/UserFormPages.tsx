// users/add and users/edit/{id} for administrators (roles 1 and 7), and the own profile that
// users/edit/{own id} opens (the sidebar's user name, product.md §2 profile flag).
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Alert, Box, Button, Checkbox, FormControlLabel, Paper, Stack, Typography } from '@mui/material';
import { FullPageSpinner, Page, useSessionUser } from '../../components';
import { EntityForm, type FormApi, type Problem } from '../../components/entity';
import { passwordProblems } from '../../../schemas/passwords';
import { notify } from '../../lib/ui';
import { can, useSay } from '../../lib/session';
import { HistorySection } from '../audit';
import { AdminActions } from './AdminActions';
import { CreatedDialog, type CreatedAccount } from './CreatedDialog';
import { DeviceCaseload, territoriesOf } from './DeviceCaseload';
import { MoveCaseload } from './MoveCaseload';
import { organisationRequired, organisationRule, RoleHelp } from './RoleHelp';
import { PasswordField } from './PasswordField';
import { PasswordRules } from './PasswordRules';
import { ProfilePage } from './ProfilePage';
import { adminEntity, adminFields } from './userForms';
import { createUser, temporaryPassword, updateUser } from './usersApi';
import { saveOverConflict, useUserRecord } from './useUserRecord';
import { userPaths } from './paths';

/** The strength rule of a password someone else will use, as the form's cross-field rule. */
function strengthRule(values: Record<string, unknown>): Record<string, Problem> {
  const password = typeof values.password === 'string' ? values.password : '';
  if (!password) return {};
  const userName = typeof values.userName === 'string' ? values.userName : '';
  return passwordProblems(password, userName).length ? { password: { id: 'users.password.weakFor' } } : {};
}

/** The first password of a new account, with a suggestion and the "change at first sign-in" box. */
function FirstPassword({ form }: { form: FormApi }) {
  const say = useSay();
  const password = String(form.values.password ?? '');
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack spacing={1.5}>
        <Typography component="h2" variant="subtitle1">
          {say('users.firstPassword')}
        </Typography>
        <PasswordField
          id="user-password"
          label={say('field.user.password')}
          value={password}
          onChange={(value) => form.setValue('password', value)}
          error={form.errors.password}
          autoComplete="new-password"
          disabled={form.saving}
          describedBy="user-password-rules"
        />
        <Box>
          <Button size="small" onClick={() => form.setValue('password', temporaryPassword())} disabled={form.saving}>
            {say('users.suggestPassword')}
          </Button>
        </Box>
        <PasswordRules id="user-password-rules" password={password} userName={String(form.values.userName ?? '')} />
        <FormControlLabel
          control={
            <Checkbox
              checked={form.values.mustChangePassword === true}
              onChange={(e) => form.setValue('mustChangePassword', e.target.checked)}
            />
          }
          label={say('field.user.mustChangePassword')}
          disabled={form.saving}
        />
      </Stack>
    </Paper>
  );
}

export function UserAddPage() {
  const say = useSay();
  const actor = useSessionUser();
  const navigate = useNavigate();
  const [entity] = useState(() => adminEntity(actor, true));
  const [created, setCreated] = useState<(CreatedAccount & { userId: string }) | null>(null);
  const staff = !can(actor?.role, 'users.createAny'); // role 7: its own organisation's staff
  if (!actor) return null;
  return (
    <Page title={say(staff ? 'users.addStaff' : 'users.add')}>
      {staff && <Alert severity="info">{say('users.staffOnly')}</Alert>}
      <EntityForm
        entity={entity}
        fields={adminFields(actor)}
        initialValues={{ mustChangePassword: true, ...(staff ? { role: 4, location: actor.location } : {}) }}
        validate={(values) => ({ ...strengthRule(values), ...organisationRule(values, !staff) })}
        required={organisationRequired}
        keepDraft={false}
        submitLabel={say('users.create')}
        onCancel={() => void navigate(userPaths.list)}
        onSubmit={async (values) => {
          const row = await createUser(actor, values);
          notify.success(say('users.created'), row.userName);
          // Shown once (CreatedDialog); the account's page opens when it is closed.
          setCreated({ userId: row.userId, userName: row.userName, password: String(values.password ?? '') });
        }}
      >
        {(form) => (
          <>
            <RoleHelp role={form.values.role} location={form.values.location} showReach={!staff} />
            <FirstPassword form={form} />
          </>
        )}
      </EntityForm>
      <CreatedDialog account={created} onClose={() => created && void navigate(userPaths.edit(created.userId), { replace: true })} />
    </Page>
  );
}

function AdminEdit({ userId }: { userId: string }) {
  const say = useSay();
  const actor = useSessionUser();
  const navigate = useNavigate();
  const record = useUserRecord(userId);
  const [entity] = useState(() => adminEntity(actor, false));
  const [version, setVersion] = useState(0);
  // A move of the worker's clients changes the device's figures, not the form: they are read again.
  const [moves, setMoves] = useState(0);
  if (!actor) return null;
  if (record.loading) return <FullPageSpinner label={say('common.loading')} />;
  if (!record.row) return <Alert severity="error">{record.error}</Alert>;
  const row = record.row;
  return (
    <Page title={`${say('screens.userEdit')}: ${row.fullName}`}>
      <AdminActions
        row={row}
        actor={actor}
        onChange={(next) => {
          record.set(next);
          setVersion((n) => n + 1);
        }}
      />
      <EntityForm
        key={`${row.userId}-${version}`}
        entity={entity}
        fields={adminFields(actor)}
        recordKey={row.userId}
        initialValues={row}
        keepDraft={false}
        validate={(values) => organisationRule(values, can(actor.role, 'users.createAny'))}
        required={organisationRequired}
        onCancel={() => void navigate(userPaths.list)}
        onSubmit={async (values) => {
          const saved = await saveOverConflict(
            () => updateUser(actor, row.userId, { ...values, updatedAt: row.updatedAt }),
            record.set,
            say('users.conflict'),
          );
          record.set(saved);
          setVersion((n) => n + 1);
          notify.success(say('users.saved'), saved.userName);
        }}
      >
        {(form) => (
          <>
            <RoleHelp role={form.values.role} location={form.values.location} showReach={can(actor.role, 'users.createAny')} />
            {/* The device's figures come from the caseload's routes, for those who assign clients. */}
            {can(actor.role, 'profiles.assign') && (
              <DeviceCaseload
                userId={row.userId}
                saved={territoriesOf(row.territories)}
                proposed={territoriesOf(form.values.territories)}
                version={version + moves}
              />
            )}
            {/* A worker's clients handed to a colleague, by those who assign: role 7 reads no
                client, so this is its way to move a leaving worker's caseload (ADR-0017). */}
            {can(actor.role, 'profiles.assign') && (
              <MoveCaseload
                userId={row.userId}
                name={row.fullName || row.userName}
                location={Number(row.location ?? 0)}
                version={version}
                onMoved={() => setMoves((n) => n + 1)}
              />
            )}
          </>
        )}
      </EntityForm>
      <HistorySection entity="user" recordId={row.userId} />
    </Page>
  );
}

/** users/edit/{id}: one's own record always opens as the profile (never one's own role or
 * organisation); another user's as the administrator's form. */
export function UserEditPage() {
  const { userId = '' } = useParams();
  const actor = useSessionUser();
  if (actor?.userId === userId) return <ProfilePage userId={userId} />;
  return <AdminEdit userId={userId} />;
}
