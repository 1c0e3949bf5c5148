// `/serviceproviders/rejected`: services a verifier rejected, with the comment, who and when,
// and a link to edit each one (an edited rejected service goes back to pending on the server).
// Read through the data layer with the status filter, so the device's copy answers offline.
import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Box, Button } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import { useIntl } from 'react-intl';
import { service, SERVICE_STATUS } from '../../../schemas/index';
import { Page, useSessionUser } from '../../components';
import { EntityGrid, langOf, type CustomColumn, type GridRow } from '../../components/entity';
import { formatDateTime } from '../../lib/ui';
import { api } from '../../lib/http';
import { type DataLayer, type ListQuery, userNames } from '../../lib/data';
import { can, useSay } from '../../lib/session';
import { servicePaths } from '../services/paths';
import { withProviderNames } from './providerNames';
import { StoreGate } from './StoreGate';
import { useConnected } from '../../components/useConnected';

const COLUMNS = ['name', 'providerName', 'comment', 'rejectedBy', 'rejectedAt', 'edit'];
const REJECTED = { status: SERVICE_STATUS.rejected };

/** Who rejected: names only the roles that list users may read (product.md §D4). */
function useVerifierNames(): ReadonlyMap<string, string> {
  const user = useSessionUser();
  const connected = useConnected();
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const allowed = connected && can(user?.role, 'users.manage');
  useEffect(() => {
    if (!allowed) return;
    let current = true;
    void userNames(api).then((map) => current && setNames(map));
    return () => {
      current = false;
    };
  }, [allowed]);
  return names;
}

function Wrapped({ text }: { text: string }) {
  return <Box sx={{ whiteSpace: 'normal', overflowWrap: 'anywhere', py: 0.5 }}>{text}</Box>;
}

function RejectedServices({ data }: { data: DataLayer }) {
  const say = useSay();
  const lang = langOf(useIntl().locale);
  const navigate = useNavigate();
  const user = useSessionUser();
  const canEdit = can(user?.role, 'serviceProviders.write');
  const names = useVerifierNames();
  const load = async (query: ListQuery) => {
    const page = await data.list(service, query);
    return { ...page, rows: await withProviderNames(data, page.rows) };
  };
  const text = (name: string) => (row: GridRow) => String(row[name] ?? '');
  const verifier = (row: GridRow) => names.get(String(row.verifiedBy ?? '')) ?? '';
  const when = (row: GridRow) => formatDateTime(row.verifiedAt as string | undefined, lang);

  const custom: Record<string, CustomColumn> = {
    providerName: { header: say('providers.verify.provider'), render: text('providerName'), text: text('providerName') },
    comment: {
      header: say('providers.rejected.comment'),
      width: 200,
      render: (row) => <Wrapped text={text('verifyComment')(row)} />,
      text: text('verifyComment'),
    },
    rejectedBy: { header: say('providers.rejected.by'), render: verifier, text: verifier },
    rejectedAt: { header: say('providers.rejected.at'), render: when, text: when },
    edit: {
      header: say('providers.rejected.actions'),
      actions: true,
      width: 120,
      render: (row) =>
        canEdit && (
          <Button
            component={RouterLink}
            to={servicePaths.edit(String(row.sp_Detail_Id))}
            size="small"
            startIcon={<EditIcon />}
            aria-label={say('providers.rejected.editOf', { name: String(row.name) })}
          >
            {say('providers.rejected.edit')}
          </Button>
        ),
    },
  };

  return (
    <EntityGrid
      entity={service}
      load={load}
      columns={canEdit ? COLUMNS : COLUMNS.filter((c) => c !== 'edit')}
      compactColumns={['name', 'edit']}
      customColumns={custom}
      exportName={say('screens.rejected')}
      filters={['category', 'serviceType', 'territory']}
      fixedFilter={REJECTED}
      onRowClick={(row) => void navigate(servicePaths.page(String(row.sp_Detail_Id)))}
      ariaLabel={say('screens.rejected')}
      emptyText={say('providers.rejected.empty')}
    />
  );
}

export function RejectedPage() {
  const say = useSay();
  return (
    <Page title={say('screens.rejected')}>
      <StoreGate>{(data) => <RejectedServices data={data} />}</StoreGate>
    </Page>
  );
}
