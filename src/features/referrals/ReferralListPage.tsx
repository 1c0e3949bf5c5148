// /referral: the referral list (ADR-0029), two tabs (service referrals, job referrals), each a
// grid paged, sorted and filtered on the server, with the client, the service or job, the
// dates, the status and whether its follow-up is overdue; CSV export; a row opens the referral.
// The list reloads by itself when a colleague changes a referral (the change stream).
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { Box, Button, Tab, Tabs } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import WorkIcon from '@mui/icons-material/Work';
import { AmberChip, Page, useSessionUser } from '../../components';
import { EntityGrid, type Filters } from '../../components/entity';
import { can, useSay } from '../../lib/session';
import { DateField } from './DateField';
import { KIND_INFO, REFERRAL_KINDS, type ReferralKind } from './kinds';
import { referralPaths } from './paths';
import { useConnected, useTableChanges } from './live';
import { NeedsConnection } from './OnlineOnly';
import { searchReferrals, type Row } from './referralApi';
import { ReferralStatusChip } from './ReferralStatusChip';

// Both kinds list the client, then what they were referred to (three columns of its own), then
// the referral's own columns.
const referralColumns = (target: readonly [string, string, string]): readonly string[] => [
  'clientName',
  'prof_Reg_No',
  ...target,
  'territory',
  'date',
  'followUpDate',
  'status',
  'overdue',
  'location',
];
const COLUMNS: Record<ReferralKind, readonly string[]> = {
  service: referralColumns(['serviceName', 'providerName', 'category']),
  job: referralColumns(['jobTitle', 'employer', 'sector']),
};
const PHONE_COLUMNS = ['clientName', 'status'] as const;
const FILTERS: Record<ReferralKind, readonly string[]> = {
  service: ['status', 'overdue', 'territory', 'category', 'serviceType', 'location'],
  job: ['status', 'overdue', 'territory', 'sector', 'location'],
};

function OverdueChip({ overdue }: { overdue: boolean }) {
  const say = useSay();
  return overdue ? <AmberChip label={say('referrals.overdue')} testId="overdue" /> : null;
}

function cellsOf(kind: ReferralKind) {
  return {
    status: (row: Row) => <ReferralStatusChip kind={kind} status={String(row.status)} />,
    overdue: (row: Row) => <OverdueChip overdue={row.overdue === true} />,
  };
}
const CELLS = { service: cellsOf('service'), job: cellsOf('job') };

interface DateRange {
  dateFrom: string;
  dateTo: string;
}

/** The referral date range, with the grid's filters (on a phone, in their sheet). */
function DateRangeFilter({ range, onChange }: { range: DateRange; onChange: (range: DateRange) => void }) {
  const say = useSay();
  const field = (name: keyof DateRange) => (
    <DateField
      size="small"
      label={say(`referrals.list.${name}`)}
      value={range[name]}
      onChange={(value) => onChange({ ...range, [name]: value })}
      testId={`referral-${name}`}
      sx={{ flex: { xs: '1 1 140px', sm: '0 0 180px' } }}
    />
  );
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', flex: { xs: '1 1 100%', md: '0 1 auto' } }}>
      {field('dateFrom')}
      {field('dateTo')}
    </Box>
  );
}

function rangeFilter(range: DateRange): Filters | undefined {
  const filter = Object.fromEntries(Object.entries(range).filter(([, value]) => value));
  return Object.keys(filter).length ? filter : undefined;
}

function ReferralGrid({ kind, refresh }: { kind: ReferralKind; refresh: number }) {
  const say = useSay();
  const navigate = useNavigate();
  const [range, setRange] = useState<DateRange>({ dateFrom: '', dateTo: '' });
  const info = KIND_INFO[kind];
  const title = say(`referrals.tab.${kind}`);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <EntityGrid<Row>
        moreFilters={{ node: <DateRangeFilter range={range} onChange={setRange} />, active: Object.values(range).filter(Boolean).length }}
        key={kind}
        entity={info.view}
        load={(query) => searchReferrals(kind, query)}
        columns={COLUMNS[kind]}
        compactColumns={PHONE_COLUMNS}
        filters={FILTERS[kind]}
        fixedFilter={rangeFilter(range)}
        renderCells={CELLS[kind]}
        refreshKey={refresh}
        onRowClick={(row) => void navigate(referralPaths.page(kind, String(row[info.key])))}
        exportName={title}
        ariaLabel={title}
        emptyText={say('referrals.list.empty')}
      />
    </Box>
  );
}

export function ReferralListPage() {
  const say = useSay();
  const user = useSessionUser();
  const connected = useConnected();
  const [params, setParams] = useSearchParams();
  const kind: ReferralKind = params.get('tab') === 'job' ? 'job' : 'service';
  const [refresh, setRefresh] = useState(0);
  useTableChanges([KIND_INFO[kind].table], () => setRefresh((n) => n + 1), connected);

  const actions =
    connected && can(user?.role, 'referrals.write') ? (
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button component={RouterLink} to={referralPaths.add('service')} variant="contained" startIcon={<AddIcon />}>
          {say('referrals.action.referService')}
        </Button>
        <Button component={RouterLink} to={referralPaths.add('job')} variant="outlined" startIcon={<WorkIcon />}>
          {say('referrals.action.referJob')}
        </Button>
      </Box>
    ) : null;

  return (
    <Page title={say('screens.referral')} actions={actions}>
      {connected ? (
        <>
          <Tabs
            value={kind}
            onChange={(_event, next: ReferralKind) => setParams(next === 'job' ? { tab: 'job' } : {}, { replace: true })}
            variant="scrollable"
            allowScrollButtonsMobile
            aria-label={say('screens.referral')}
          >
            {REFERRAL_KINDS.map((k) => (
              <Tab key={k} value={k} label={say(`referrals.tab.${k}`)} id={`referral-tab-${k}`} aria-controls="referral-tabpanel" />
            ))}
          </Tabs>
          <Box role="tabpanel" id="referral-tabpanel" aria-labelledby={`referral-tab-${kind}`}>
            <ReferralGrid key={kind} kind={kind} refresh={refresh} />
          </Box>
        </>
      ) : (
        <NeedsConnection />
      )}
    </Page>
  );
}
