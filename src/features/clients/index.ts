// Clients (ADR-0028): list, step form (add and edit), client page; loaded with their area (area.tsx).
export { ClientListPage } from './ClientListPage';
export { ClientAddPage, ClientEditPage } from './ClientFormPage';
export { ClientPage } from './ClientPage';
