// Charts shared by the dashboard and the reports (ADR-0031).
export {
  BAR_THICKNESS,
  CountBarChart,
  StackedBarChart,
  type CountBarChartProps,
  type CountRow,
  type StackedBarChartProps,
} from './CountBarChart';
