// The services of one provider on its page, with their verification status, and a way to add
// one for it (the services feature's form, given the provider).
import { Link as RouterLink, useNavigate } from 'react-router';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { service } from '../../../schemas/index';
import { ServiceStatusChip } from '../../components';
import { EntityGrid } from '../../components/entity';
import type { DataLayer } from '../../lib/data';
import { useSay } from '../../lib/session';
import { servicePaths } from '../services/paths';

const COLUMNS = ['name', 'status', 'category', 'serviceType', 'territory', 'createdAt'];
const RENDER = { status: (row: Record<string, unknown>) => <ServiceStatusChip status={row.status} size="small" /> };

interface Props {
  data: DataLayer;
  spId: string;
  name: string;
  canAdd: boolean;
}

export function ProviderServices({ data, spId, name, canAdd }: Props) {
  const say = useSay();
  const navigate = useNavigate();
  return (
    <Card variant="outlined">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            {say('providers.page.services')}
          </Typography>
          {canAdd && (
            <Button component={RouterLink} to={servicePaths.add(spId)} variant="outlined" startIcon={<AddIcon />}>
              {say('providers.page.addService')}
            </Button>
          )}
        </Box>
        <EntityGrid
          entity={service}
          load={(query) => data.list(service, query)}
          columns={COLUMNS}
          compactColumns={['name', 'status']}
          renderCells={RENDER}
          exportable={false}
          filters={['status', 'category', 'serviceType']}
          fixedFilter={{ sp_Id: spId }}
          pageSizes="medium"
          onRowClick={(row) => void navigate(servicePaths.page(String(row.sp_Detail_Id)))}
          ariaLabel={say('providers.page.servicesOf', { name })}
          emptyText={say('providers.page.noServices')}
        />
      </CardContent>
    </Card>
  );
}
