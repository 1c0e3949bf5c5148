// Where the offline screens live (product.md §2 Offline home; docs/offline-contract.md).
export const OFFLINE_HOME_PATH = '/offlinehp';
export const PENDING_PATH = `${OFFLINE_HOME_PATH}/pending`;
