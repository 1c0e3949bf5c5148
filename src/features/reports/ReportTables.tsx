// One section of the reports: its table beside its chart, and a CSV file of the table.
import {
  Box,
  Button,
  Card,
  CardContent,
  Grid,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableFooter,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useIntl } from 'react-intl';
import type { ReactNode } from 'react';
import { csvSeparator, langOf, toCsv } from '../../components/entity';
import { fileSlug } from '../../components/entity/csv';
import { downloadText } from '../../lib/ui';
import { useSay } from '../../lib/session';

/** A table as the screen and the CSV file show it: header, rows, a total line. */
export interface TableData {
  header: string[];
  rows: (string | number)[][];
  total: (string | number)[];
}

/** Saves `table` as '<title>-<period>.csv' (separator and numbers as the user's language reads them). */
export function useCsv() {
  const intl = useIntl();
  const lang = langOf(intl.locale);
  return (table: TableData, title: string, suffix: string) => {
    const cell = (value: string | number) => (typeof value === 'number' ? intl.formatNumber(value, { useGrouping: false }) : value);
    const rows = [...table.rows, table.total].map((row) => row.map(cell));
    downloadText(toCsv(table.header, rows, csvSeparator(lang)), `${fileSlug(title)}${suffix ? `-${suffix}` : ''}.csv`);
  };
}

interface SectionFrameProps {
  id: string;
  title: string;
  table: TableData | null;
  chart: ReactNode;
  failed: boolean;
  fileSuffix: string;
  /** A wide table (territory × category): the chart goes below it rather than beside. */
  wide?: boolean;
}

export function SectionFrame({ id, title, table, chart, failed, fileSuffix, wide = false }: SectionFrameProps) {
  const say = useSay();
  const saveCsv = useCsv();
  const headingId = `report-${id}-title`;
  return (
    <Card variant="outlined" component="section" aria-labelledby={headingId} className="report-section" data-testid={`report-${id}`}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
          <Typography id={headingId} component="h2" variant="h6" sx={{ flexGrow: 1 }}>
            {title}
          </Typography>
          {table && (
            <Button
              size="small"
              startIcon={<DownloadIcon />}
              className="no-print"
              onClick={() => saveCsv(table, title, fileSuffix)}
              aria-label={`${say('reports.csv')}: ${title}`}
              data-testid={`csv-${id}`}
            >
              {say('reports.csv')}
            </Button>
          )}
        </Box>
        {failed && <Typography color="error">{say('reports.failed')}</Typography>}
        {table && (
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: wide ? 12 : 5 }}>
              <DataTable table={table} label={title} testId={`table-${id}`} />
            </Grid>
            <Grid size={{ xs: 12, md: wide ? 12 : 7 }}>{chart}</Grid>
          </Grid>
        )}
      </CardContent>
    </Card>
  );
}

function DataTable({ table, label, testId }: { table: TableData; label: string; testId: string }) {
  const intl = useIntl();
  const say = useSay();
  const show = (value: string | number) => (typeof value === 'number' ? intl.formatNumber(value) : value);
  const numeric = (i: number) => i > 0;
  return (
    // Focusable and named: a wide table scrolls sideways, and keyboard users must reach it too.
    <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
      <Table size="small" aria-label={label} data-testid={testId}>
        <TableHead>
          <TableRow>
            {table.header.map((title, i) => (
              <TableCell key={title} align={numeric(i) ? 'right' : 'left'} sx={{ fontWeight: 700 }}>
                {title}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {table.rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={table.header.length}>{say('charts.noData')}</TableCell>
            </TableRow>
          )}
          {table.rows.map((row, r) => (
            <TableRow key={r}>
              {row.map((value, i) => (
                <TableCell
                  key={i}
                  align={numeric(i) ? 'right' : 'left'}
                  component={i === 0 ? 'th' : 'td'}
                  scope={i === 0 ? 'row' : undefined}
                >
                  {show(value)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
        <TableFooter>
          <TableRow>
            {table.total.map((value, i) => (
              <TableCell key={i} align={numeric(i) ? 'right' : 'left'} sx={{ fontWeight: 700, color: 'text.primary', fontSize: 'inherit' }}>
                {show(value)}
              </TableCell>
            ))}
          </TableRow>
        </TableFooter>
      </Table>
    </TableContainer>
  );
}

/** Rows of a count as a table: the key's label, the count, its share of the total in %. */
export function countTable(
  dimension: string,
  counted: string,
  rows: readonly { label: string; count: number }[],
  t: (id: string) => string,
): TableData {
  const total = rows.reduce((sum, row) => sum + row.count, 0);
  const share = (count: number) => (total ? Math.round((count / total) * 1000) / 10 : 0);
  return {
    header: [dimension, counted, t('reports.share')],
    rows: rows.map((row) => [row.label, row.count, share(row.count)]),
    total: [t('reports.total'), total, total ? 100 : 0],
  };
}
