// Where the provider screens live (product.md §2 route table: serviceproviders, add, verify,
// rejected); the services screens below them are the services feature's (services/paths.ts).
const id = encodeURIComponent;

export const PROVIDERS_PATH = '/serviceproviders';
export const providerPath = (spId: string) => `${PROVIDERS_PATH}/${id(spId)}`;
export const providerEditPath = (spId: string) => `${providerPath(spId)}/edit`;
export const addProviderPath = `${PROVIDERS_PATH}/add`;
export const verifyPath = `${PROVIDERS_PATH}/verify`;
export const rejectedPath = `${PROVIDERS_PATH}/rejected`;
