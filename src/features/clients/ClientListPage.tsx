// /profiles: the clients (issue 11). Online the grid pages through the API (the server's
// organisation scope decides what is there), with this device's clients not uploaded yet on top;
// offline through the store. Search by name, registration number or phone; filters by
// territory, sex, population group, education level, organisation and registration date.
import { Link as RouterLink, useNavigate } from 'react-router';
import { Button, useMediaQuery, type Theme } from '@mui/material';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { FullPageSpinner, Page, useSessionUser } from '../../components';
import { EntityGrid, useDisplayContext, type CustomColumn, type GridRow } from '../../components/entity';
import { useOpeningDataLayer } from '../../lib/db/hooks';
import { can } from '../../lib/permissions';
import { CLIENT_LIST } from './list';
import { ADD_CLIENT_PATH, clientPath } from './paths';
import type { ClientDoc } from './saveClient';

/** A phone shows who the client is, by their full name, and the number staff quote. */
const PHONE_COLUMNS = ['fullName', 'prof_Reg_No'] as const;
const FULL_NAME = ['firstName', 'middleName', 'lastName'] as const;
const PHONE_LIST_COLUMNS = ['fullName', ...CLIENT_LIST.columns];

const fullNameColumns = new Map<string, Readonly<Record<string, CustomColumn>>>();

/** The full name as one column (a phone has room for one name column; "Nom" alone was the last name). */
function fullNameColumn(header: string): Readonly<Record<string, CustomColumn>> {
  let columns = fullNameColumns.get(header);
  if (!columns) {
    const text = (row: GridRow) =>
      FULL_NAME.map((name) => row[name])
        .filter(Boolean)
        .join(' ');
    columns = { fullName: { header, text, render: text } };
    fullNameColumns.set(header, columns);
  }
  return columns;
}

export function ClientListPage() {
  const ctx = useDisplayContext();
  const data = useOpeningDataLayer(); // the list asks the server while the store opens
  const user = useSessionUser();
  const navigate = useNavigate();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
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
          columns={narrow ? PHONE_LIST_COLUMNS : CLIENT_LIST.columns}
          compactColumns={PHONE_COLUMNS}
          customColumns={fullNameColumn(ctx.t('clients.list.fullName'))}
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
