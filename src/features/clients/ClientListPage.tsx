// /profiles: the clients (issue 11). Online the grid pages through the API (the server's
// organisation scope decides what is there), with this device's clients not uploaded yet on top;
// offline through the store. Search by name, registration number or phone; filters by
// territory, sex, population group, education level, organisation and registration date.
import { Link as RouterLink, useNavigate } from 'react-router';
import { Button } from '@mui/material';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { FullPageSpinner, Page, useSessionUser } from '../../components';
import { EntityGrid, useDisplayContext } from '../../components/entity';
import { useOpeningDataLayer } from '../../lib/db/hooks';
import { can } from '../../lib/permissions';
import { CLIENT_LIST } from './list';
import { ADD_CLIENT_PATH, clientPath } from './paths';
import type { ClientDoc } from './saveClient';

/** A phone shows who the client is and the number staff quote. */
const PHONE_COLUMNS = ['lastName', 'prof_Reg_No'] as const;

export function ClientListPage() {
  const ctx = useDisplayContext();
  const data = useOpeningDataLayer(); // the list asks the server while the store opens
  const user = useSessionUser();
  const navigate = useNavigate();
  const title = ctx.t('screens.profiles');
  // product.md §2: 'Add Clients' only for a user with an organisation (location not 0).
  const add =
    can(user?.role, 'profiles.write') && user?.location ? (
      <Button component={RouterLink} to={ADD_CLIENT_PATH} variant="contained" startIcon={<PersonAddIcon />}>
        {ctx.t('menu.addClients')}
      </Button>
    ) : null;
  return (
    <Page title={title} actions={add}>
      {data ? (
        <EntityGrid<ClientDoc>
          entity={CLIENT_LIST.entity}
          load={(query) => data.listPages(CLIENT_LIST.entity, query)}
          firstPage={(query) => data.firstPage(CLIENT_LIST.entity, query)}
          columns={CLIENT_LIST.columns}
          compactColumns={PHONE_COLUMNS}
          dateRange
          onRowClick={(row) => void navigate(clientPath(row.prof_Id))}
          exportName={title}
          ariaLabel={title}
        />
      ) : (
        <FullPageSpinner label={ctx.t('common.loading')} />
      )}
    </Page>
  );
}
