// Clients (ADR-0028): list, step form (add and edit), client page.
export { clientRoutes } from './routes';
