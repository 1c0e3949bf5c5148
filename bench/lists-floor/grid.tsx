// Step `grid`: MUI's theme, CssBaseline and the MUI DataGrid, set up as the app's GridView
// (src/components/entity/GridView.tsx): server paging of one page of 25, auto row height,
// wrapping cells, in a box like EntityGrid's. Step `grid-fixed`: the same with the grid's fixed
// row height (52 px), to show what measuring the rows costs.
import { Box } from '@mui/material';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { use } from 'react';
import { createRoot } from 'react-dom/client';
import { COLUMNS, type Row } from './rows';
import { Themed } from './theme';

const columns: GridColDef<Row>[] = COLUMNS.map((c) => ({ ...c, flex: 1, minWidth: 120 }));
const PAGE = { page: 0, pageSize: 25 };
const autoHeight = new URLSearchParams(location.search).get('step') !== 'grid-fixed';

export function Grid({ rows }: { rows: Promise<Row[]> }) {
  const shown = use(rows);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 220, width: '100%' }}>
        <DataGrid
          aria-label="Providers"
          rows={shown}
          columns={columns}
          rowCount={10_000}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          pageSizeOptions={[PAGE.pageSize]}
          paginationModel={PAGE}
          disableColumnFilter
          disableRowSelectionOnClick
          getRowHeight={autoHeight ? () => 'auto' : undefined}
          sx={{ '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 0.75, whiteSpace: 'normal', overflowWrap: 'anywhere', lineHeight: 1.43 } }}
        />
      </Box>
    </Box>
  );
}

export function draw(rows: Promise<Row[]>) {
  createRoot(document.getElementById('root') as HTMLElement).render(
    <Themed>
      <Grid rows={rows} />
    </Themed>,
  );
}
