// Clients (issue 11): list, step form (add and edit), client page.
export { clientRoutes } from './routes';
