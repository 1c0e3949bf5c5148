// Counts per category as horizontal bars (the dashboard's and the reports' charts): bars 20 px
// thick (product.md §9) whatever the number of categories, long labels shortened on the axis and
// whole in the tooltip, the value written beside each bar, readable in both themes.
import { Box, Typography, useMediaQuery, useTheme } from '@mui/material';
import { BarChart, type BarChartProps } from '@mui/x-charts/BarChart';
import { useIntl } from 'react-intl';
import { useNearScreen } from '../../lib/ui';
import { useSay } from '../../lib/session';

/** product.md §9: chart bar thickness 20. */
export const BAR_THICKNESS = 20;
/** Room per category: the bar and the gap around it. */
const BAND = 30;
const GAP_RATIO = 1 - BAR_THICKNESS / BAND;
const X_AXIS_HEIGHT = 28;
const MARGIN = { top: 4, bottom: 4 };
/** How near the screen a `whenShown` chart must come to be drawn. */
const NEAR_SCREEN = '300px';

/** The chart height whose band scale gives each category exactly BAND px: x-charts pads half a
 * gap before the first band and after the last, so the bands share the plot height evenly. */
function chartHeight(categories: number): number {
  return categories * BAND + X_AXIS_HEIGHT + MARGIN.top + MARGIN.bottom;
}

export interface CountRow {
  /** Category key (lookup id or code), for tests and links. */
  key: string | number;
  label: string;
  count: number;
}

export interface CountBarChartProps {
  rows: readonly CountRow[];
  /** What is counted ('Services'): the series name in the tooltip. */
  seriesLabel: string;
  /** Accessible name of the chart. */
  ariaLabel: string;
  color?: string;
  testId?: string;
  /** Drawn only once on or near the screen (the dashboard's, below the figures on a phone);
   * its place is kept meanwhile, so nothing moves when it comes. */
  whenShown?: boolean;
  /** False: only its place for now (the page draws its charts in turn). Default true. */
  draw?: boolean;
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

interface HorizontalBarsProps {
  /** One bar per category, top to bottom. */
  categories: readonly string[];
  series: readonly BarSeries[];
  ariaLabel: string;
  testId?: string;
  /** Largest value of the value axis (room for labels written beyond the bars). */
  max?: number;
  legend: boolean;
  whenShown?: boolean;
  draw?: boolean;
}

type BarSeries = NonNullable<BarChartProps['series']>[number];

/** Horizontal bars 20 px thick whatever their number, long category names shortened on the
 * axis and whole in the tooltip; a note instead of an empty chart. */
function HorizontalBars({ categories, series, ariaLabel, testId, max, legend, whenShown = false, draw = true }: HorizontalBarsProps) {
  const intl = useIntl();
  const say = useSay();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const [near, place] = useNearScreen(NEAR_SCREEN, whenShown);
  if (categories.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }} data-testid={testId}>
        {say('charts.noData')}
      </Typography>
    );
  }
  const maxLabel = narrow ? 16 : 28;
  const height = chartHeight(categories.length);
  return (
    <Box ref={place} role="img" aria-label={ariaLabel} data-testid={testId} sx={{ minHeight: height }}>
      {near && draw && (
        <BarChart
          layout="horizontal"
          height={height}
          hideLegend={!legend}
          slotProps={legend ? { legend: { position: { vertical: 'bottom', horizontal: 'center' } } } : undefined}
          margin={{ ...MARGIN, right: legend ? 16 : 40, left: 4 }}
          yAxis={[
            {
              scaleType: 'band',
              data: [...categories],
              categoryGapRatio: GAP_RATIO,
              width: narrow ? 110 : 180,
              valueFormatter: (value: string, context) => (context.location === 'tick' ? shorten(value, maxLabel) : value),
            },
          ]}
          xAxis={[{ height: X_AXIS_HEIGHT, tickMinStep: 1, max, valueFormatter: (value: number) => intl.formatNumber(value) }]}
          series={[...series]}
        />
      )}
    </Box>
  );
}

export function CountBarChart({ rows, seriesLabel, ariaLabel, color, testId, whenShown, draw }: CountBarChartProps) {
  const intl = useIntl();
  const theme = useTheme();
  return (
    <HorizontalBars
      categories={rows.map((row) => row.label)}
      ariaLabel={ariaLabel}
      testId={testId}
      whenShown={whenShown}
      draw={draw}
      legend={false}
      // Room beyond the longest bar for its value (labels outside the plot area are clipped).
      max={Math.max(1, ...rows.map((r) => r.count)) * 1.15}
      series={[
        {
          data: rows.map((row) => row.count),
          label: seriesLabel,
          color: color ?? theme.palette.primary.main,
          barLabel: 'value',
          barLabelPlacement: 'outside',
          valueFormatter: (value) => (value === null ? '' : intl.formatNumber(value)),
        },
      ]}
    />
  );
}

export interface StackedBarChartProps {
  /** One bar per category ('Goma', 'Beni'…). */
  categories: readonly string[];
  /** One stacked part per series ('Health', 'Education'…), values in the order of `categories`. */
  series: readonly { label: string; data: readonly number[] }[];
  ariaLabel: string;
  testId?: string;
}

/** Counts per category split by a second key, as stacked horizontal bars 20 px thick. */
export function StackedBarChart({ categories, series, ariaLabel, testId }: StackedBarChartProps) {
  const intl = useIntl();
  return (
    <HorizontalBars
      categories={categories}
      ariaLabel={ariaLabel}
      testId={testId}
      legend
      series={series.map((s) => ({
        label: s.label,
        data: [...s.data],
        stack: 'total',
        valueFormatter: (v: number | null) => (v === null ? '' : intl.formatNumber(v)),
      }))}
    />
  );
}
