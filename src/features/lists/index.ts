// Public surface of the lookup-list administration (issue 14).
export { ListsPage, ORGANISATIONS } from './ListsPage';
