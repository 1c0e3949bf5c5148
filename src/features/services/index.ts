// The services screens, loaded with their area (area.tsx).
export { ServiceListPage } from './ServiceListPage';
export { ServiceAddPage } from './ServiceAddPage';
export { ServicePage } from './ServicePage';
export { ServiceEditPage } from './ServiceEditPage';
export { TrainingFormPage } from './TrainingFormPage';
