// Public surface: the 403 and not-found pages.
export { ForbiddenPage } from './ForbiddenPage';
export { NotFoundPage } from './NotFoundPage';
