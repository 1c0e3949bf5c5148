// The audit log (ADR-0036): a record's History section for the record pages, the audit screen
// and the client data requests (loaded with their area, area.tsx), and a client's export and erasure buttons.
export { AuditPage } from './AuditPage';
export { ClientRequestsPage } from './ClientRequestsPage';
export { HistorySection, type HistorySectionProps } from './HistorySection';
export { ClientDataActions, type ClientDataActionsProps } from './ClientDataActions';
export { AUDIT_PATH, AUDIT_CLIENTS_PATH } from './paths';
export { creatorName } from './auditApi';
export type { AuditAction, AuditEntry, AuditFilters, AuditPage as AuditPageResult } from './types';
