// `/serviceproviders`: every service provider (product.md §D5): server pages online, the device's
// copy offline (records not uploaded yet marked so), search, type and territory filters, CSV
// export of the filtered rows, and a row click to the provider's page.
import { Link as RouterLink, useNavigate } from 'react-router';
import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { Page, useSessionUser } from '../../components';
import { EntityGrid } from '../../components/entity';
import { can, useSay } from '../../lib/session';
import { PROVIDER_LIST } from './list';
import { addProviderPath, providerPath } from './paths';
import { StoreGate } from './StoreGate';
import type { ProviderDoc } from './useProvider';

export function ProviderListPage() {
  const say = useSay();
  const user = useSessionUser();
  const navigate = useNavigate();

  const add = can(user?.role, 'menu.addServiceProvider') && (
    <Button component={RouterLink} to={addProviderPath} variant="contained" startIcon={<AddIcon />}>
      {say('providers.list.add')}
    </Button>
  );

  return (
    <Page title={say('screens.serviceProviders')} actions={add}>
      <StoreGate opening>
        {(data) => (
          <EntityGrid<ProviderDoc>
            entity={PROVIDER_LIST.entity}
            load={(query) => data.listPages(PROVIDER_LIST.entity, query)}
            firstPage={(query) => data.firstPage(PROVIDER_LIST.entity, query)}
            columns={PROVIDER_LIST.columns}
            compactColumns={['sp_Name', 'sp_type']}
            filters={['sp_type', 'territory']}
            onRowClick={(row) => void navigate(providerPath(row.sp_Id))}
            ariaLabel={say('screens.serviceProviders')}
          />
        )}
      </StoreGate>
    </Page>
  );
}
