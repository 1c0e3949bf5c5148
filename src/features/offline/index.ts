// Public surface of the offline feature (docs/offline-contract.md "Offline screens").
export { OfflineHomePage } from './OfflineHomePage';
export { PendingRecordsPage } from './PendingRecordsPage';
export { SignedInStore } from './OfflineStore';
export { UnsentBanner, useGuardedLogout, logoutNow } from './unsentGuards';
export { usePendingTotal } from './counts';
export { NetworkIndicator, UploadOnReconnect } from './NetworkStatus';
export { useUploadRun } from './uploadRun';
export { useCaseloadStatus, refreshCaseloadStatus, type CaseloadStatus, type CaseloadFigures } from './caseloadStatus';
export { resyncReplication } from './replicationControl';
