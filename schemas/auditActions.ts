// What an audit entry records (ADR-0036): the server writes these actions and filters by them,
// the audit screen names and filters them. One list for both.

export const AUDIT_ACTIONS = [
  'create',
  'update',
  'assign',
  'pin',
  'unpin',
  'delete',
  'verify',
  'reject',
  'status',
  'image.add',
  'image.remove',
  'file.download',
  'signin',
  'signin.failed',
  'signout',
  'lock',
  'password.change',
  'password.reset',
  'user.create',
  'user.update',
  'user.deactivate',
  'user.reactivate',
  'list.change',
  'export',
  'erase',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
