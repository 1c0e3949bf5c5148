// The jobs screens, loaded with their area (area.tsx).
export { JobListPage } from './JobListPage';
export { JobAddPage, JobEditPage } from './JobFormPage';
export { JobPage } from './JobPage';
