// The own profile (users/edit/{own id}?profile=1, from the user name in the sidebar): name,
// e-mail, phone and language. Role and organisation are shown, never edited here.
import { Link as RouterLink } from 'react-router';
import { Alert, Box, Button, FormControl, FormControlLabel, FormLabel, Paper, Radio, RadioGroup, Stack, Typography } from '@mui/material';
import LockResetIcon from '@mui/icons-material/LockReset';
import { useIntl } from 'react-intl';
import { FullPageSpinner, Page, usePreferences, useSessionUser } from '../../components';
import { HistorySection } from '../audit';
import { can, isLang, LANGS, useSay } from '../../lib/session';
import { EntityForm, lookupLabel, useLookupLists } from '../../components/entity';
import { notify } from '../../lib/ui';
import { PROFILE_FIELDS, profileEntity } from './userForms';
import { saveOverConflict, useUserRecord } from './useUserRecord';
import { updateOwnProfile } from './usersApi';
import { userPaths } from './paths';

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0 }}>
        {value}
      </Typography>
    </Box>
  );
}

function LanguageChoice() {
  const say = useSay();
  const { lang, setLang } = usePreferences();
  return (
    <FormControl>
      <FormLabel id="profile-language">{say('users.profile.language')}</FormLabel>
      <RadioGroup row aria-labelledby="profile-language" value={lang} onChange={(e) => isLang(e.target.value) && setLang(e.target.value)}>
        {LANGS.map((code) => (
          <FormControlLabel key={code} value={code} control={<Radio />} label={say(`lang.${code}`)} lang={code} />
        ))}
      </RadioGroup>
    </FormControl>
  );
}

export function ProfilePage({ userId }: { userId: string }) {
  const intl = useIntl();
  const say = useSay();
  const record = useUserRecord(userId);
  const lists = useLookupLists();
  const actor = useSessionUser();
  if (record.loading) return <FullPageSpinner label={say('common.loading')} />;
  if (!record.row) return <Alert severity="error">{record.error}</Alert>;
  const row = record.row;
  const organisation = row.location
    ? lookupLabel(lists, 'organisation', row.location, intl.locale.startsWith('en') ? 'en' : 'fr')
    : say('users.noOrganisation');
  return (
    <Page
      title={say('screens.myProfile')}
      actions={
        <Button component={RouterLink} to={userPaths.changePassword} startIcon={<LockResetIcon />}>
          {say('menu.changePassword')}
        </Button>
      }
    >
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack component="dl" direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 4 }} sx={{ m: 0 }}>
          <Detail label={say('field.user.userName')} value={row.userName} />
          <Detail label={say('field.user.role')} value={say(`role.${row.role}`)} />
          <Detail label={say('field.user.location')} value={organisation} />
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {say('users.profile.askAdmin')}
        </Typography>
      </Paper>
      <EntityForm
        entity={profileEntity}
        fields={PROFILE_FIELDS}
        recordKey={row.userId}
        initialValues={row}
        keepDraft={false}
        onSubmit={async (values) => {
          const saved = await saveOverConflict(
            () => updateOwnProfile(row.userId, { ...values, updatedAt: row.updatedAt }),
            record.set,
            say('users.conflict'),
          );
          record.set(saved);
          notify.success(say('users.profile.saved'));
        }}
      />
      <Paper variant="outlined" sx={{ p: 2 }}>
        <LanguageChoice />
      </Paper>
      {/* One's own history, for the roles that read users' records (the server's rule). */}
      {can(actor?.role, 'users.manage') && <HistorySection entity="user" recordId={row.userId} />}
    </Page>
  );
}
