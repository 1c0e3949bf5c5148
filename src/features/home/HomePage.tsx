import { memo } from 'react';
import { Box, Card, CardContent, Grid, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useIntl } from 'react-intl';
import { Page, usePreferences, useSessionUser } from '../../components';
import { CountBarChart } from '../../components/charts';
import { langOf, lookupLabel, useLookupLists } from '../../components/entity';
import { useInTurn } from '../../lib/ui';
import { CHARTS, type Dashboard } from './dashboardData';
import { DashboardMap } from './DashboardMap';
import { StatTile } from './StatTile';
import { tilesFor } from './tiles';
import { useDashboard } from './useDashboard';
import { useSay } from '../../lib/session';

const CHART_COLORS: Record<string, string> = { services: '#00838f', jobs: '#2e7d32' };

/** The four charts; memoised: a refresh bringing the same figures keeps `charts` (useDashboard). */
const Charts = memo(function Charts({ charts, answered }: { charts: Dashboard['charts'] | null; answered: Dashboard['lists'] | null }) {
  const intl = useIntl();
  const say = useSay();
  const cached = useLookupLists();
  const lists = answered ?? cached;
  const lang = langOf(intl.locale);
  // One chart per task (ADR-0035): drawn together they were one task of 0.7 s on a phone. The
  // places of the others are kept meanwhile, so the page does not move as they come.
  const drawn = useInTurn(CHARTS.length, charts !== null);
  return (
    <Grid container spacing={2}>
      {CHARTS.map((chart, index) => {
        const title = say(`home.chart.${chart.id}`);
        const counts = charts?.[chart.id] ?? [];
        const rows = counts.map((c) => ({ key: c.id, label: lookupLabel(lists, chart.list, c.id, lang), count: c.count }));
        return (
          <Grid key={chart.id} size={{ xs: 12, lg: 6 }}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardContent>
                <Typography component="h2" variant="h6" gutterBottom>
                  {title}
                </Typography>
                {charts && (
                  <CountBarChart
                    rows={rows}
                    seriesLabel={say(`home.${chart.counts}`)}
                    ariaLabel={title}
                    color={CHART_COLORS[chart.counts]}
                    testId={`chart-${chart.id}`}
                    whenShown
                    draw={index < drawn}
                  />
                )}
              </CardContent>
            </Card>
          </Grid>
        );
      })}
    </Grid>
  );
});

/** Dashboard (product.md §2): tiles, four charts and the map; figures refresh when the change
 * stream reports new records. Offline mode goes to the offline home instead (app/routes.tsx). */
export function HomePage() {
  const intl = useIntl();
  const say = useSay();
  const { mode } = usePreferences();
  const user = useSessionUser();
  const { data, refreshing, refresh } = useDashboard(mode === 'online');
  const tiles = tilesFor(user?.role);
  const stats = data?.general ?? null;
  const refreshLabel = say('home.refresh');
  return (
    <Page title={say('home.title')}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'flex-end', gap: 1, minHeight: 40 }}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="fetched-at" aria-live="polite">
          {data &&
            say('home.fetchedAt', { time: intl.formatTime(data.fetchedAt, { hour: '2-digit', minute: '2-digit', second: '2-digit' }) })}
        </Typography>
        <Tooltip title={refreshLabel}>
          <span>
            <IconButton onClick={refresh} disabled={refreshing} aria-label={refreshLabel} data-testid="dashboard-refresh">
              <RefreshIcon />
            </IconButton>
          </span>
        </Tooltip>
      </Stack>
      <Grid container spacing={2}>
        {tiles.map((tile) => (
          <Grid key={tile.id} size={{ xs: 12, sm: 6, lg: 3 }}>
            <StatTile
              id={tile.id}
              label={say(tile.labelId)}
              count={stats ? (stats[tile.stat] ?? null) : null}
              to={tile.to}
              color={tile.color}
              icon={tile.icon}
            />
          </Grid>
        ))}
      </Grid>
      <Charts charts={data?.charts ?? null} answered={data?.lists ?? null} />
      <Card variant="outlined">
        <CardContent>{data?.geo ? <DashboardMap geo={data.geo} /> : <Box sx={{ minHeight: 80 }} />}</CardContent>
      </Card>
    </Page>
  );
}
