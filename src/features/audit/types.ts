// The audit log as the server answers it (ADR-0036): one entry per change, sign-in, download,
// export or erasure, newest first. Values of a change are only there when the server may give
// them (`changes` null otherwise: not an update, values erased or not readable).
import { AUDIT_ACTIONS, type AuditAction } from '../../../schemas/auditActions';

export { AUDIT_ACTIONS, type AuditAction };

export interface FieldChange {
  before: unknown;
  after: unknown;
}

export interface AuditEntry {
  /** Time-ordered uuid: a later entry sorts after an earlier one. */
  id: string;
  /** Server time (ISO). */
  at: string;
  /** The device's time of a record saved offline and uploaded later. */
  deviceAt: string | null;
  userId: string | null;
  userName: string | null;
  role: number | null;
  /** The acting user's organisation. */
  userLocation: number | null;
  /** The organisation the entry belongs to (the record's owner, or the user's). */
  location: number | null;
  /** An AuditAction; a newer server may send one this app does not know yet. */
  action: string;
  /** Entity name of schemas/ ('profile', 'skills', …), null for sign-ins and the like. */
  entity: string | null;
  recordId: string | null;
  /** The client (profile key) the record belongs to, if any. */
  clientId: string | null;
  /** Names of the fields changed or filled in (never values). */
  fields: string[];
  changes: Record<string, FieldChange> | null;
  /** Reason of a delete or erasure, file name of an image or a file, 'from→to' of a status. */
  note: string | null;
}

export interface AuditPage {
  rows: AuditEntry[];
  total: number;
  totalIsLowerBound?: boolean;
  page: number;
  pageSize: number;
}

/** The audit screen's filters (GET /api/audit and /api/audit/csv query parameters). */
export interface AuditFilters {
  userId?: string;
  location?: number;
  entity?: string;
  action?: string;
  /** 'YYYY-MM-DD', inclusive. */
  dateFrom?: string;
  dateTo?: string;
}

/** A client found by the client data requests search (GET /api/audit/clients). */
export interface ClientMatch {
  profId: string;
  regNo: string;
  name: string;
  location: number | null;
}
