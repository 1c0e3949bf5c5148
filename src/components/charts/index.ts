// Charts shared by the dashboard and the reports (issue 13).
export {
  BAR_THICKNESS,
  CountBarChart,
  StackedBarChart,
  type CountBarChartProps,
  type CountRow,
  type StackedBarChartProps,
} from './CountBarChart';
