// Public surface: the dashboard.
export { HomePage } from './HomePage';
