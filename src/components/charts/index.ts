// Charts shared by the dashboard and the reports (issue 13).
export { BAR_THICKNESS, CountBarChart, type CountBarChartProps, type CountRow } from './CountBarChart';
