// users (roles 1 and 7): who may sign in. Role 1 sees everyone, role 7 the staff of its own
// organisation (the server's scope). Name, user name, role, organisation, active flag and last
// sign-in; search, filters and CSV export from the shared grid. A field worker's territories show
// here; their device's size only on their page (one request per user, never one per row).
import { Link as RouterLink, useNavigate } from 'react-router';
import { Button } from '@mui/material';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { AmberChip, Page, useSessionUser } from '../../components';
import { EntityGrid } from '../../components/entity';
import { useDisplayContext } from '../../components/entity/useDisplayContext';
import { cellValue } from '../../components/entity/columns';
import { can, useSay } from '../../lib/session';
import { lacksOrganisation } from '../../../schemas/scope';
import { listUsers, userEntity, type UserRow } from './usersApi';
import { userPaths } from './paths';

const COLUMNS = ['fullName', 'userName', 'role', 'location', 'territories', 'active', 'lastSignInAt'] as const;
const PHONE_COLUMNS = ['fullName', 'active'] as const;
const FILTERS = ['role', 'location', 'active'] as const;
/** Role 7 sees its own organisation only: no organisation filter. */
const STAFF_FILTERS = ['role', 'active'] as const;

function ActiveCell({ row }: { row: Record<string, unknown> }) {
  const say = useSay();
  return row.active === true ? say('users.active') : <AmberChip label={say('users.inactive')} testId="user-inactive" />;
}

/** Roles 3-7 need an organisation (ADR-0007): an account without one (made before that
 * rule) sees no client data until an administrator chooses it, so the list points it out. */
function OrganisationCell({ row }: { row: Record<string, unknown> }) {
  const say = useSay();
  const ctx = useDisplayContext();
  if (lacksOrganisation({ role: Number(row.role), location: Number(row.location ?? 0) })) {
    return <AmberChip label={say('users.organisationMissing')} testId="user-no-organisation" />;
  }
  return cellValue(userEntity, 'location', row.location, ctx);
}

const CELLS = {
  active: (row: Record<string, unknown>) => <ActiveCell row={row} />,
  location: (row: Record<string, unknown>) => <OrganisationCell row={row} />,
};

export function UserListPage() {
  const say = useSay();
  const user = useSessionUser();
  const navigate = useNavigate();
  const title = say('screens.users');
  const organisationAdmin = !can(user?.role, 'users.createAny'); // role 7: its own staff only

  return (
    <Page
      title={title}
      actions={
        <Button component={RouterLink} to={userPaths.add} variant="contained" startIcon={<PersonAddIcon />}>
          {say(organisationAdmin ? 'users.addStaff' : 'users.add')}
        </Button>
      }
    >
      <EntityGrid<UserRow>
        entity={userEntity}
        load={listUsers}
        columns={COLUMNS}
        compactColumns={PHONE_COLUMNS}
        filters={organisationAdmin ? STAFF_FILTERS : FILTERS}
        renderCells={CELLS}
        onRowClick={(row) => void navigate(userPaths.edit(row.userId))}
        exportName={title}
        ariaLabel={title}
      />
    </Page>
  );
}
