// Reports (ADR-0032, roles 1 and 2): key figures and counts by territory, category, sector,
// sex and status for one territory and period, each table beside its chart, a CSV file of each
// table, and a print layout (one section per page, no navigation, charts kept).
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Box, Button, Card, CardContent, GlobalStyles, Grid, MenuItem, TextField, Typography } from '@mui/material';
import PrintIcon from '@mui/icons-material/Print';
import { useIntl } from 'react-intl';
import { Page, useSessionUser } from '../../components';
import { DayField } from '../../components/DayField';
import { DAY_MAX, DAY_MIN } from '../../lib/ui';
import { CountBarChart, StackedBarChart } from '../../components/charts';
import { langOf, lookupLabel, lookupOptions, useLookupLists } from '../../components/entity';
import { api } from '../../lib/http';
import { getCachedLists, type LookupLists, refreshLists } from '../../lib/data';
import { can, useSay } from '../../lib/session';
import {
  enumKey,
  fetchReport,
  KPIS,
  SECTIONS,
  type CountSection,
  type CrossCount,
  type CrossSection,
  type KeyCount,
  type KeyLabel,
  type Report,
  type ReportFilter,
} from './reportData';
import { countTable, SectionFrame, type TableData } from './ReportTables';

/** Print: the page alone, one section per sheet, charts kept. */
const PRINT_STYLES = {
  '@media print': {
    '.MuiAppBar-root, .MuiDrawer-root, footer, [data-testid="training-banner"], .no-print': { display: 'none !important' },
    'main#main': { padding: '0 !important' },
    'main#main ~ *, #main + footer': { display: 'none !important' },
    '.MuiToolbar-root:empty': { display: 'none !important' },
    body: { background: '#fff' },
    '.report-section': { breakInside: 'avoid', border: 'none !important' },
    // The key figures stay under the title; every other section starts a page.
    '.report-section ~ .report-section': { breakBefore: 'page' },
  },
} as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The filter lives in the address (?territory=&from=&to=): a report can be bookmarked or shared. */
function filterOf(params: URLSearchParams): ReportFilter {
  const territory = Number(params.get('territory'));
  return {
    territory: Number.isInteger(territory) && territory > 0 ? territory : null,
    dateFrom: DATE.test(params.get('from') ?? '') ? params.get('from') : null,
    dateTo: DATE.test(params.get('to') ?? '') ? params.get('to') : null,
  };
}

/** The filter and a change of some of its parts. Each change applies to the address as it is
 * then, not as it was at the last render: two fields changed in quick succession (a date typed,
 * then the other) both stay. */
function useFilter(): [ReportFilter, (patch: Partial<ReportFilter>) => void] {
  const [params, setParams] = useSearchParams();
  const change = (patch: Partial<ReportFilter>) => {
    // The address now (the router's own copy is the last render's, which may be older).
    const next = { ...filterOf(new URLSearchParams(window.location.search)), ...patch };
    const out = new URLSearchParams();
    if (next.territory !== null) out.set('territory', String(next.territory));
    if (next.dateFrom) out.set('from', next.dateFrom);
    if (next.dateTo) out.set('to', next.dateTo);
    setParams(out, { replace: true });
  };
  return [filterOf(params), change];
}

function Filters({
  filter,
  onChange,
  lists,
  invalid,
}: {
  filter: ReportFilter;
  onChange: (patch: Partial<ReportFilter>) => void;
  lists: LookupLists | null;
  invalid: boolean;
}) {
  const intl = useIntl();
  const t = useSay();
  const territories = lookupOptions(lists, 'territory', langOf(intl.locale));
  return (
    <Card variant="outlined" className="no-print">
      <CardContent>
        <Grid container spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <DayField
              label={t('reports.dateFrom')}
              value={filter.dateFrom ?? ''}
              onChange={(value) => onChange({ dateFrom: value || null })}
              fullWidth
              testId="filter-from"
              min={DAY_MIN}
              max={DAY_MAX}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <DayField
              label={t('reports.dateTo')}
              value={filter.dateTo ?? ''}
              onChange={(value) => onChange({ dateTo: value || null })}
              error={invalid ? t('reports.dateOrder') : undefined}
              fullWidth
              testId="filter-to"
              min={DAY_MIN}
              max={DAY_MAX}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <TextField
              select
              label={t('reports.territory')}
              value={filter.territory ?? ''}
              onChange={(e) => onChange({ territory: e.target.value === '' ? null : Number(e.target.value) })}
              fullWidth
              slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'filter-territory' } as object } }}
            >
              <MenuItem value="">{t('reports.allTerritories')}</MenuItem>
              {territories.map((o) => (
                <MenuItem key={o.value} value={o.value}>
                  {o.label}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', pt: { md: 1 } }}>
            <Button
              onClick={() => onChange({ territory: null, dateFrom: null, dateTo: null })}
              disabled={!filter.territory && !filter.dateFrom && !filter.dateTo}
            >
              {t('reports.clear')}
            </Button>
            <Button variant="outlined" startIcon={<PrintIcon />} onClick={() => window.print()}>
              {t('reports.print')}
            </Button>
          </Grid>
        </Grid>
      </CardContent>
    </Card>
  );
}

function Kpis({ report }: { report: Report }) {
  const intl = useIntl();
  const say = useSay();
  const kpis = report.kpis;
  if (!kpis) return <Alert severity="warning">{say('reports.failed')}</Alert>;
  return (
    <Card variant="outlined" component="section" aria-labelledby="report-kpis-title" className="report-section" data-testid="report-kpis">
      <CardContent>
        <Typography id="report-kpis-title" component="h2" variant="h6" gutterBottom>
          {say('reports.kpis')}
        </Typography>
        <Grid container spacing={1.5} component="dl" sx={{ m: 0 }}>
          {KPIS.filter((name) => kpis[name] !== undefined).map((name) => (
            <Grid
              key={name}
              size={{ xs: 6, sm: 4, md: 3, lg: 2 }}
              sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
              data-testid={`kpi-${name}`}
            >
              <Typography component="dd" variant="h5" sx={{ m: 0, fontWeight: 700 }}>
                {intl.formatNumber(kpis[name] ?? 0)}
              </Typography>
              <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
                {say(`reports.kpi.${name}`)}
              </Typography>
            </Grid>
          ))}
        </Grid>
      </CardContent>
    </Card>
  );
}

/** A key as people read it: a lookup item's label, an enumerated value's translation. */
function useKeyLabel(lists: LookupLists | null) {
  const intl = useIntl();
  const say = useSay();
  const lang = langOf(intl.locale);
  return (label: KeyLabel, key: number | string): string => {
    if ('list' in label) return lookupLabel(lists, label.list, key, lang);
    const id = enumKey(label.entity, label.field, key);
    // A value the catalog does not name shows as it is, not as its message id.
    return id && intl.messages[id] ? say(id) : String(key);
  };
}

function CountPart({
  section,
  rows,
  failed,
  lists,
  suffix,
}: {
  section: CountSection;
  rows: KeyCount[] | null;
  failed: boolean;
  lists: LookupLists | null;
  suffix: string;
}) {
  const t = useSay();
  const keyLabel = useKeyLabel(lists);
  const title = t(`reports.section.${section.id}`);
  const labelled = (rows ?? []).map((row) => ({ key: row.id, label: keyLabel(section.label, row.id), count: row.count }));
  const table: TableData | null = rows
    ? countTable(t(`reports.dimension.${section.dimension}`), t(`reports.counted.${section.counts}`), labelled, t)
    : null;
  return (
    <SectionFrame
      id={section.id}
      title={title}
      table={table}
      failed={failed}
      fileSuffix={suffix}
      chart={
        <CountBarChart
          rows={labelled}
          seriesLabel={t(`reports.counted.${section.counts}`)}
          ariaLabel={title}
          testId={`chart-${section.id}`}
        />
      }
    />
  );
}

function CrossPart({
  section,
  cells,
  failed,
  lists,
  suffix,
}: {
  section: CrossSection;
  cells: CrossCount[] | null;
  failed: boolean;
  lists: LookupLists | null;
  suffix: string;
}) {
  const intl = useIntl();
  const t = useSay();
  const lang = langOf(intl.locale);
  const title = t(`reports.section.${section.id}`);
  const territories = [...new Set((cells ?? []).map((c) => c.territory))];
  const categories = [...new Set((cells ?? []).map((c) => c.category))];
  const count = (territory: number, category: number) =>
    cells?.find((c) => c.territory === territory && c.category === category)?.count ?? 0;
  const territoryLabels = territories.map((id) => lookupLabel(lists, 'territory', id, lang));
  const categoryLabels = categories.map((id) => lookupLabel(lists, 'category', id, lang));
  const table: TableData | null = cells
    ? {
        header: [t('reports.dimension.territory'), ...categoryLabels, t('reports.total')],
        rows: territories.map((ter, i) => {
          const values = categories.map((cat) => count(ter, cat));
          return [territoryLabels[i] ?? '', ...values, values.reduce((a, b) => a + b, 0)];
        }),
        total: [
          t('reports.total'),
          ...categories.map((cat) => territories.reduce((sum, ter) => sum + count(ter, cat), 0)),
          cells.reduce((sum, c) => sum + c.count, 0),
        ],
      }
    : null;
  return (
    <SectionFrame
      id={section.id}
      title={title}
      table={table}
      failed={failed}
      fileSuffix={suffix}
      wide
      chart={
        <StackedBarChart
          categories={territoryLabels}
          series={categories.map((cat, i) => ({ label: categoryLabels[i] ?? '', data: territories.map((ter) => count(ter, cat)) }))}
          ariaLabel={title}
          testId={`chart-${section.id}`}
        />
      }
    />
  );
}

/** 'goma-2024-01-01-2024-12-31': the filter in a CSV file's name. */
function fileSuffix(filter: ReportFilter, lists: LookupLists | null): string {
  const territory = filter.territory !== null ? lookupLabel(lists, 'territory', filter.territory, 'fr') : '';
  return [territory, filter.dateFrom ?? '', filter.dateTo ?? ''].filter(Boolean).join('-');
}

export function ReportsPage() {
  const say = useSay();
  const user = useSessionUser();
  const cached = useLookupLists();
  const [lists, setLists] = useState<LookupLists | null>(cached);
  const [filter, setFilter] = useFilter();
  const [answer, setAnswer] = useState<{ key: string; report: Report } | null>(null);
  const sections = useMemo(() => SECTIONS.filter((s) => s.kind === 'cross' || !s.needs || can(user?.role, s.needs)), [user?.role]);
  const invalid = Boolean(filter.dateFrom && filter.dateTo && filter.dateTo < filter.dateFrom);
  const key = JSON.stringify(filter);

  useEffect(() => {
    refreshLists(api)
      .then((fresh) => setLists(fresh ?? getCachedLists()))
      .catch((error: unknown) => console.warn('Report lists not refreshed:', error));
  }, []);

  useEffect(() => {
    if (invalid) return;
    let cancelled = false;
    const asked = JSON.parse(key) as ReportFilter;
    void fetchReport(asked, sections).then((report) => {
      if (!cancelled) setAnswer({ key, report });
    });
    return () => {
      cancelled = true;
    };
  }, [key, invalid, sections]);

  const report = answer?.report ?? null;
  const loading = !invalid && answer?.key !== key;
  const suffix = fileSuffix(filter, lists);
  return (
    <Page title={say('reports.title')}>
      <GlobalStyles styles={PRINT_STYLES} />
      <Filters filter={filter} onChange={setFilter} lists={lists} invalid={invalid} />
      <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="report-state" data-loading={loading} aria-live="polite">
        {loading ? say('reports.loading') : say(can(user?.role, 'stats.programme') ? 'reports.scopeProgramme' : 'reports.scope')}
      </Typography>
      {report && (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, opacity: loading ? 0.6 : 1 }}>
          <Kpis report={report} />
          {sections.map((section) => {
            const result = report.sections[section.id];
            const failed = !result || 'failed' in result;
            return section.kind === 'cross' ? (
              <CrossPart
                key={section.id}
                section={section}
                cells={result && 'cross' in result ? result.cross : null}
                failed={failed}
                lists={lists}
                suffix={suffix}
              />
            ) : (
              <CountPart
                key={section.id}
                section={section}
                rows={result && 'rows' in result ? result.rows : null}
                failed={failed}
                lists={lists}
                suffix={suffix}
              />
            );
          })}
        </Box>
      )}
    </Page>
  );
}
