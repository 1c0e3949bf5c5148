// `/serviceproviders/services`: every service, paged on the server (or in the local store
// offline), with filters by category, service type, territory and verification status, a quick
// search, CSV export, and a row click to the service's page (product.md §D5).
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import type { ServiceStatusValue } from '../../../schemas/index';
import { Page, ServiceStatusChip, ServiceStatusFilter, useSessionUser } from '../../components';
import { ListGrid } from '../../components/entity';
import type { Doc } from '../../lib/data';
import { can, useSay } from '../../lib/session';
import { SERVICE_LIST } from './list';
import { servicePaths } from './paths';

const COMPACT = ['name', 'status'] as const;
// Status has its own chips above the grid; the selects cover the lookups.
const FILTERS = ['category', 'serviceType', 'territory'] as const;
const CELLS = { status: (row: Record<string, unknown>) => <ServiceStatusChip status={row.status} size="small" /> };

export function ServiceListPage() {
  const say = useSay();
  const navigate = useNavigate();
  const user = useSessionUser();
  const [status, setStatus] = useState<ServiceStatusValue | undefined>(undefined);
  const title = say('screens.services');
  const addButton = can(user?.role, 'serviceProviders.write') ? (
    <Button component={RouterLink} to={servicePaths.add()} variant="contained" startIcon={<AddIcon />}>
      {say('services.list.add')}
    </Button>
  ) : null;

  return (
    <Page title={title} actions={addButton}>
      <ServiceStatusFilter value={status} onChange={setStatus} />
      <ListGrid<Doc<typeof SERVICE_LIST.entity>>
        list={SERVICE_LIST}
        compactColumns={COMPACT}
        filters={FILTERS}
        renderCells={CELLS}
        fixedFilter={status === undefined ? undefined : { status }}
        onRowClick={(row) => void navigate(servicePaths.page(row.sp_Detail_Id))}
        ariaLabel={title}
      />
    </Page>
  );
}
