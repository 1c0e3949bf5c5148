// Where the audit screens live (ADR-0036).
export const AUDIT_PATH = '/audit';
export const AUDIT_CLIENTS_PATH = '/audit/clients';
