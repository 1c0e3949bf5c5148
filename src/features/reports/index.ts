// Public surface: the reports screen (issue 13).
export { ReportsPage } from './ReportsPage';
