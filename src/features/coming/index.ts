// Public surface: the reusable "this screen arrives in a coming version" page.
export { ComingPage } from './ComingPage';
