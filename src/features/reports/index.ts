// Public surface: the reports screen (ADR-0032).
export { ReportsPage } from './ReportsPage';
