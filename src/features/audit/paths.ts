// Where the audit screens live (issue 28 §3, §4).
export const AUDIT_PATH = '/audit';
export const AUDIT_CLIENTS_PATH = '/audit/clients';
