// Step `mui-table`: MUI's theme, CssBaseline and Table.
import { Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import { use } from 'react';
import { createRoot } from 'react-dom/client';
import { COLUMNS, type Row } from './rows';
import { Themed } from './theme';

function Rows({ rows }: { rows: Promise<Row[]> }) {
  return use(rows).map((row) => (
    <TableRow key={row.id}>
      {COLUMNS.map((c) => (
        <TableCell key={c.field}>{row[c.field]}</TableCell>
      ))}
    </TableRow>
  ));
}

export function draw(rows: Promise<Row[]>) {
  createRoot(document.getElementById('root') as HTMLElement).render(
    <Themed>
      <TableContainer>
        <Table size="small">
          <TableHead>
            <TableRow>
              {COLUMNS.map((c) => (
                <TableCell key={c.field}>{c.headerName}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            <Rows rows={rows} />
          </TableBody>
        </Table>
      </TableContainer>
    </Themed>,
  );
}
