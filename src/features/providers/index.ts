// The provider screens, loaded with their area (area.tsx).
export { ProviderListPage } from './ProviderListPage';
export { AddProviderPage, EditProviderPage } from './ProviderFormPage';
export { VerifyPage } from './VerifyPage';
export { RejectedPage } from './RejectedPage';
export { ProviderPage } from './ProviderPage';
