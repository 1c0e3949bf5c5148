// Public surface of the lookup-list administration (ADR-0030).
export { ListsPage, ORGANISATIONS } from './ListsPage';
