export { jobRoutes } from './routes';
