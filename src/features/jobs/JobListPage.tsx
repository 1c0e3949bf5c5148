// /availablejobs: the employers' job offers (product.md §D5 list screens). Online the grid pages
// through the API (POST /jobs/search/), offline through the device's store, where jobs saved
// here and not uploaded yet carry the "not uploaded" chip.
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Box, Button, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { Page, useSessionUser } from '../../components';
import { ListGrid, type Filters } from '../../components/entity';
import { can, useSay } from '../../lib/session';
import { JobOpenChip } from './JobOpenChip';
import { JOB_LIST } from './list';
import { jobPaths } from './paths';
import type { JobDoc } from './useJobData';

/** A phone shows what tells jobs apart and whether one is still worth applying to. */
const PHONE_COLUMNS = ['title', 'deadline'] as const;
const FILTERS = ['sector', 'territory', 'contract'] as const;
const CELLS = { open: (row: Record<string, unknown>) => <JobOpenChip open={row.open === true} /> };

type Status = 'all' | 'open' | 'closed';

const STATUS_FILTER: Record<Status, Filters | undefined> = {
  all: undefined,
  open: { open: true },
  closed: { open: false },
};

function StatusFilter({ value, onChange }: { value: Status; onChange: (value: Status) => void }) {
  const say = useSay();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Typography id="job-status-label" variant="body2" color="text.secondary">
        {say('jobs.status.label')}
      </Typography>
      <ToggleButtonGroup
        exclusive
        size="small"
        color="primary"
        value={value}
        onChange={(_event, next: Status | null) => next && onChange(next)}
        aria-labelledby="job-status-label"
        data-testid="job-status-filter"
      >
        {(['all', 'open', 'closed'] as const).map((status) => (
          <ToggleButton key={status} value={status} sx={{ px: 2 }}>
            {say(`jobs.status.${status}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </Box>
  );
}

export function JobListPage() {
  const say = useSay();
  const user = useSessionUser();
  const navigate = useNavigate();
  const [status, setStatus] = useState<Status>('all');
  const title = say('screens.availableJobs');

  const add = can(user?.role, 'jobs.write') ? (
    <Button component={RouterLink} to={jobPaths.add} variant="contained" startIcon={<AddIcon />}>
      {say('jobs.list.add')}
    </Button>
  ) : null;

  return (
    <Page title={title} actions={add}>
      <StatusFilter value={status} onChange={setStatus} />
      <ListGrid<JobDoc>
        list={JOB_LIST}
        compactColumns={PHONE_COLUMNS}
        filters={FILTERS}
        fixedFilter={STATUS_FILTER[status]}
        renderCells={CELLS}
        onRowClick={(row) => void navigate(jobPaths.page(row.jb_Id))}
        exportName={title}
        ariaLabel={title}
      />
    </Page>
  );
}
