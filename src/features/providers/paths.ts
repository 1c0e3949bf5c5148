// Addresses of the provider screens and of the services screens they link to (the services
// feature builds those: /serviceproviders/services/...).
const id = encodeURIComponent;

export const PROVIDERS_PATH = '/serviceproviders';
export const providerPath = (spId: string) => `${PROVIDERS_PATH}/${id(spId)}`;
export const providerEditPath = (spId: string) => `${providerPath(spId)}/edit`;
export const addServicePath = (spId: string) => `${PROVIDERS_PATH}/services/add?sp_Id=${id(spId)}`;
export const servicePath = (spDetailId: string) => `${PROVIDERS_PATH}/services/${id(spDetailId)}`;
export const serviceEditPath = (spDetailId: string) => `${servicePath(spDetailId)}/edit`;
